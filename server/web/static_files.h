// Mapping a request path to a file under a served directory, never outside it: `..`
// segments (also percent-encoded) are refused, dot-files are hidden, and the resolved file
// (symlinks followed) must still lie inside the directory. Plus the MIME types we serve.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace clamsim::web {

// A URL prefix served from a directory, e.g. "/vendor/three/" -> node_modules/three.
struct StaticMount {
  std::string prefix;            // starts and ends with '/'
  std::filesystem::path dir;     // "" = not configured (404)
};

struct StaticLookup {
  enum class Status { Found, NotFound, BadRequest };
  Status status = Status::NotFound;
  std::filesystem::path file;    // Found: the canonical path of a regular file
  std::string reason;            // NotFound / BadRequest: why (for the response body)
};

// path: the request target without its query string, still percent-encoded. The longest
// matching mount prefix wins; a path ending in '/' serves that directory's index.html.
StaticLookup resolve_static(std::string_view path, const std::vector<StaticMount>& mounts);

// "text/html; charset=utf-8" for "x/index.html"; application/octet-stream when unknown.
std::string_view mime_type(std::string_view path);

}  // namespace clamsim::web
