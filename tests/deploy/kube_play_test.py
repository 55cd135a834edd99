#!/usr/bin/env python3
"""deploy/kubernetes/deployment.yaml run for real with `podman kube play` (docs/scaling.md).

The pod starts from the manifest, answers /readyz and /livez on the pod's address as a
kubelet's probes would ask, serves a browser-like client, and when its container is
stopped (SIGTERM, as the kubelet sends it) drains: /readyz turns 503 "draining" while the
live sessions go on to their end, then the server exits 0.

Kubernetes cannot run here; podman 4.3 plays the manifest with these differences, each made
to a temporary copy (the shipped file is played otherwise as it is):
  - the image is the one built from this checkout (localhost/clamsim:test);
  - NODE_IP is a literal (podman has no status.hostIP fieldRef) and $(NODE_IP) is expanded
    by this test (podman does not expand dependent variables);
  - no hostPort (it would publish on every host interface; the test reaches the pod's
    own address on podman's bridge) and one replica, under a name of this run;
  - runc and explicit ulimits through CONTAINERS_CONF, as scripts/build-image.sh explains;
  - podman turns the probes into `curl` inside the container (the image has none), so the
    test asks /readyz and /livez from outside, like a kubelet.

usage: kube_play_test.py SOURCE_DIR WSLOAD_BINARY
Exit 77 (ctest: skipped) when podman or python3-yaml is missing, unless
CLAMSIM_REQUIRE_CONTAINER=yes (CI) makes that a failure.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

IMAGE = "localhost/clamsim:test"
SKIP = 77


def missing(what):
    if os.environ.get("CLAMSIM_REQUIRE_CONTAINER") == "yes":
        sys.exit(f"kube play test: {what} (scripts/setup.sh --tests installs it)")
    print(f"kube play test skipped: {what}")
    sys.exit(SKIP)


try:
    import yaml
except ImportError:
    missing("python3-yaml is not installed")


def podman(*args, timeout=120, check=True):
    r = subprocess.run(["podman", *args], capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise AssertionError(f"podman {' '.join(args)} exited {r.returncode}: {r.stderr}")
    return r.stdout.strip()


def played_copy(source_dir, name):
    """The shipped Deployment with the differences listed in the module's comment."""
    with open(os.path.join(source_dir, "deploy/kubernetes/deployment.yaml")) as f:
        deployment = yaml.safe_load(f)
    deployment["metadata"]["name"] = name
    deployment["spec"]["replicas"] = 1
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    container["image"] = IMAGE
    env = container["env"]
    node_ip = [e for e in env if e["name"] == "NODE_IP"]
    assert node_ip and node_ip[0]["valueFrom"]["fieldRef"]["fieldPath"] == "status.hostIP"
    node_ip[0].clear()
    node_ip[0].update(name="NODE_IP", value="127.0.0.1")
    for e in env:
        if "value" in e:
            e["value"] = e["value"].replace("$(NODE_IP)", "127.0.0.1")
    for port in container["ports"]:
        port.pop("hostPort", None)
    return deployment, container


def get(url, timeout=3):
    """(status, parsed JSON body) of a GET; status 0 when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
    except (urllib.error.URLError, OSError):
        return 0, None


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def wait_status(url, code, seconds):
    """(status, body) of url once it answers code."""
    def answered():
        r = get(url)
        return r if r[0] == code else None
    return wait_for(answered, seconds, f"{url} to answer {code}")


def main():
    source_dir, wsload = sys.argv[1], sys.argv[2]
    if subprocess.run(["sh", "-c", "command -v podman"], capture_output=True).returncode:
        missing("podman is not installed")
    built = subprocess.run([os.path.join(source_dir, "scripts/build-image.sh"), IMAGE],
                           capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, built.stdout + built.stderr
    print(built.stdout.strip())

    name = f"clamsim-kubetest-{os.getpid()}"
    work = tempfile.mkdtemp(prefix="clamsim-kube-")
    deployment, container = played_copy(source_dir, name)
    manifest = os.path.join(work, "deployment.yaml")
    with open(manifest, "w") as f:
        yaml.safe_dump(deployment, f)
    conf = os.path.join(work, "containers.conf")
    with open(conf, "w") as f:
        f.write('[containers]\ndefault_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]\n'
                '[engine]\nruntime = "runc"\n')
    os.environ["CONTAINERS_CONF"] = conf
    pod, server = f"{name}-pod-0", f"{name}-pod-0-server"
    try:
        podman("kube", "play", manifest, timeout=300)
        infra = podman("pod", "inspect", pod, "--format", "{{.InfraContainerID}}")
        address = podman("inspect", infra, "--format",
                         "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}")
        assert address, "the pod has no address on podman's bridge"
        http = next(p["containerPort"] for p in container["ports"] if p["name"] == "http")
        base = f"http://{address}:{http}"
        def logs():  # the container's stdout (the event log) and stderr
            r = subprocess.run(["podman", "logs", server], capture_output=True, text=True,
                               timeout=60)
            return r.stdout + r.stderr

        # the probes' paths, asked from outside as a kubelet does
        status, ready = wait_status(base + "/readyz", 200, 60)
        capacity = next(e["value"] for e in container["env"] if e["name"] == "CLAMSIM_MAX_SESSIONS")
        assert ready["capacity"] == int(capacity), ready
        assert get(base + "/livez")[0] == 200
        uid = podman("exec", server, "sh", "-c", "grep ^Uid: /proc/1/status")
        pod_security = deployment["spec"]["template"]["spec"]["securityContext"]
        assert uid.split()[1] == str(pod_security["runAsUser"]), uid
        print(f"kube play: pod {pod} at {address}, /readyz {ready}")

        # a browser-like client, then SIGTERM to the container as the kubelet sends it
        client = subprocess.Popen(
            [wsload, "--url", f"ws://{address}:{http}/ws", "--sessions", "2", "--duration", "8",
             "--warmup", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        wait_for(lambda: (get(base + "/readyz")[1] or {}).get("sessions") == 2, 20, "2 sessions")
        grace = str(deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"])
        stopper = subprocess.Popen(["podman", "stop", "-t", grace, server],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        status, body = wait_status(base + "/readyz", 503, 10)
        assert body["status"] == "draining" and body["sessions"] == 2, body
        print(f"kube play: stopping, /readyz {status} {body}")
        out, _ = client.communicate(timeout=60)
        print(out)
        assert client.returncode == 0, out
        assert "lost frames: 0 " in out, out
        assert "connected: 2 of 2" in out, out
        stopper.wait(timeout=int(grace) + 30)
        exit_code = podman("inspect", server, "--format", "{{.State.ExitCode}}")
        assert exit_code == "0", exit_code + logs()
        assert 'ended_by="last session ended"' in logs(), logs()
        print("kube play: drained and exited 0 after the last session ended")
    finally:
        podman("kube", "down", manifest, check=False)
        podman("pod", "rm", "-f", pod, check=False)


if __name__ == "__main__":
    main()
