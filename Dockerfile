# clamsim-server for a department server (docs/deploy.md). Two stages, both FROM ${BASE}
# so that a machine without an image registry can pass a Debian 12 base it built itself
# (scripts/build-image.sh does, with debootstrap). Build from the checkout after
# scripts/setup.sh (which installs three.js and uPlot into node_modules/ with npm ci):
#   podman build --format docker --build-arg BASE=localhost/clamsim-base:bookworm -t clamsim .
ARG BASE=debian:bookworm-slim

# ---- build: the Release binaries, nothing else ----
FROM ${BASE} AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      g++ make cmake pkg-config libeigen3-dev nlohmann-json3-dev libboost-dev \
      libomniorb4-dev omniidl libssl-dev libzstd-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY CMakeLists.txt CMakePresets.json ./
COPY idl idl
COPY server server
RUN cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCLAMSIM_BUILD_TESTS=OFF \
      -DCLAMSIM_BUILD_BENCHMARKS=OFF \
 && cmake --build build -j"$(nproc)" --target clamsim-server clamsim-sim clamsim-accounts \
 && strip build/server/app/clamsim-server build/server/tools/clamsim-sim \
      build/server/tools/accounts/clamsim-accounts

# ---- runtime: the runtime libraries, the binaries and the data they read ----
# libomniorb4-2 holds libomnisslTP4 (IIOP over TLS) and pulls in libssl3; libzstd1
# (recordings' chunk compression) is in the base already, named so it stays.
FROM ${BASE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libomniorb4-2 libomnithread4 libssl3 libzstd1 \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && useradd --system --uid 10001 --user-group --home-dir /var/lib/clamsim \
      --shell /usr/sbin/nologin clamsim \
 && install -d -o clamsim -g clamsim -m 0750 /var/lib/clamsim
COPY --from=build /src/build/server/app/clamsim-server /src/build/server/tools/clamsim-sim \
     /src/build/server/tools/accounts/clamsim-accounts /usr/local/bin/
COPY deploy/container/clamsim-healthcheck /usr/local/bin/
COPY models /usr/share/clamsim/models
COPY config/scenarios /usr/share/clamsim/scenarios
COPY config/keyboard.json /usr/share/clamsim/keyboard.json
# batch tables name files as from the repository's root (models/..., config/scenarios/...):
# from /usr/share/clamsim they resolve the same (clamsim-sim --batch, docs/scaling.md)
COPY config/batch /usr/share/clamsim/config/batch
RUN ln -s ../scenarios /usr/share/clamsim/config/scenarios
COPY web /usr/share/clamsim/web
COPY node_modules/three/build /usr/share/clamsim/three/build
COPY node_modules/three/examples/jsm /usr/share/clamsim/three/examples/jsm
COPY node_modules/three/LICENSE node_modules/three/package.json /usr/share/clamsim/three/
# uPlot's dist/ (the replay's plots) is all the page loads of it
COPY node_modules/uplot/dist /usr/share/clamsim/uplot
COPY node_modules/uplot/LICENSE /usr/share/clamsim/uplot/LICENSE
COPY deploy/container/server.json /etc/clamsim/server.json

# Every setting is also CLAMSIM_<FLAG> (docs/deploy.md); the image's config listens on all
# interfaces and keeps its state on the volume.
ENV CLAMSIM_CONFIG=/etc/clamsim/server.json
USER 10001:10001
WORKDIR /var/lib/clamsim
VOLUME ["/var/lib/clamsim"]
EXPOSE 8080 10150
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/clamsim-healthcheck"]
ENTRYPOINT ["/usr/local/bin/clamsim-server"]
