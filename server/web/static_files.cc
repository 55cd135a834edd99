#include "web/static_files.h"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "web/url.h"

namespace clamsim::web {

namespace fs = std::filesystem;

namespace {

StaticLookup fail(StaticLookup::Status s, std::string reason) {
  StaticLookup r;
  r.status = s;
  r.reason = std::move(reason);
  return r;
}

// true when `p` is `root` or lies below it (both canonical)
bool inside(const fs::path& root, const fs::path& p) {
  auto r = root.begin();
  auto q = p.begin();
  for (; r != root.end(); ++r, ++q) {
    if (q == p.end() || *r != *q) return false;
  }
  return true;
}

}  // namespace

StaticLookup resolve_static(std::string_view path, const std::vector<StaticMount>& mounts) {
  using S = StaticLookup::Status;
  std::string decoded;
  if (!percent_decode(path, &decoded)) return fail(S::BadRequest, "malformed path encoding");
  if (decoded.empty() || decoded.front() != '/') return fail(S::BadRequest, "path must start with /");
  if (decoded.find('\\') != std::string::npos) return fail(S::BadRequest, "backslash in path");

  // the segments, with "." and empty ones skipped; ".." is never followed
  std::vector<std::string> segments;
  for (std::size_t start = 1; start <= decoded.size();) {
    const std::size_t end = std::min(decoded.find('/', start), decoded.size());
    const std::string seg = decoded.substr(start, end - start);
    start = end + 1;
    if (seg.empty() || seg == ".") continue;
    if (seg == "..") return fail(S::BadRequest, "\"..\" in path");
    if (seg.front() == '.') return fail(S::NotFound, "not found");  // .git, .env, ...
    segments.push_back(seg);
  }

  const StaticMount* mount = nullptr;
  for (const auto& m : mounts) {
    const bool dir_itself = decoded + "/" == m.prefix;
    if ((decoded.compare(0, m.prefix.size(), m.prefix) == 0 || dir_itself) &&
        (!mount || m.prefix.size() > mount->prefix.size()))
      mount = &m;
  }
  if (!mount || mount->dir.empty()) return fail(S::NotFound, "not found");

  // drop the mount's own segments
  std::size_t skip = 0;
  for (char c : mount->prefix) skip += c == '/' ? 1 : 0;
  skip = skip > 0 ? skip - 1 : 0;
  if (segments.size() < skip) return fail(S::NotFound, "not found");
  fs::path rel;
  for (std::size_t i = skip; i < segments.size(); ++i) rel /= segments[i];
  if (segments.size() == skip || decoded.back() == '/') rel /= "index.html";

  std::error_code ec;
  const fs::path root = fs::canonical(mount->dir, ec);
  if (ec) return fail(S::NotFound, "not found");
  const fs::path file = fs::canonical(root / rel, ec);
  if (ec) return fail(S::NotFound, "not found");
  if (!inside(root, file)) return fail(S::NotFound, "not found");  // a symlink out of the root
  if (!fs::is_regular_file(file, ec)) return fail(S::NotFound, "not found");
  StaticLookup r;
  r.status = S::Found;
  r.file = file;
  return r;
}

std::string_view mime_type(std::string_view path) {
  struct Entry {
    const char* ext;
    const char* type;
  };
  static constexpr Entry kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".htm", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".txt", "text/plain; charset=utf-8"},
      {".md", "text/plain; charset=utf-8"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},
      {".svg", "image/svg+xml"},
      {".ico", "image/vnd.microsoft.icon"},
      {".wasm", "application/wasm"},
      {".glb", "model/gltf-binary"},
      {".gltf", "model/gltf+json"},
      {".woff2", "font/woff2"},
  };
  const auto dot = path.rfind('.');
  const auto slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
    return "application/octet-stream";
  std::string ext(path.substr(dot));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& e : kTypes)
    if (ext == e.ext) return e.type;
  return "application/octet-stream";
}

}  // namespace clamsim::web
