#pragma once

#include <functional>
#include <string>

namespace docintel::common {

/// The content of the secret file `path`, first created (mode 0600, its folder too) with what
/// `make` returns when it does not exist. Several processes may start at once on a shared data
/// folder (nodes of one deployment): exactly one creates the file and all read the same secret.
std::string readOrCreateSecret(const std::string& path, const std::function<std::string()>& make);

}  // namespace docintel::common
