#pragma once

#include <cstdint>

#include "host_services.h"
#include "registrar.h"

/// The plugin ABI. A plugin is a shared library built in-tree with the same toolchain; it
/// exports one C function, `docintel_plugin_descriptor`, returning a descriptor the host checks
/// (ABI major equal, minor not newer than the host's, build id equal) before it creates
/// anything. Libraries are never unloaded, so anything a plugin hands the host may live as long
/// as the process.

#define DOCINTEL_PLUGIN_ABI_MAJOR 1
#define DOCINTEL_PLUGIN_ABI_MINOR 6

#ifndef DOCINTEL_PLUGIN_BUILD_ID
#error "DOCINTEL_PLUGIN_BUILD_ID must be defined by the build (see core/plugin_api/CMakeLists.txt)"
#endif

namespace docintel::plugin {

/// A loaded plugin. `registerWith` is called exactly once; it may throw (the host catches it
/// and refuses the plugin).
class Plugin {
  public:
    virtual ~Plugin() = default;
    virtual void registerWith(Registrar& registrar, HostServices& host) = 0;
};

}  // namespace docintel::plugin

extern "C" {

struct DocintelPluginDescriptor {
    std::uint32_t abi_major;
    std::uint32_t abi_minor;
    const char* build_id;
    const char* name;
    const char* version;
    docintel::plugin::Plugin* (*create)();
    void (*destroy)(docintel::plugin::Plugin*);
};

using DocintelPluginDescriptorFn = const DocintelPluginDescriptor* (*)();
}

/// Declares the descriptor of a plugin whose class is `PluginClass` (default-constructible).
#define DOCINTEL_PLUGIN(PluginClass, plugin_name, plugin_version)                     \
    extern "C" __attribute__((visibility("default"))) const DocintelPluginDescriptor* \
    docintel_plugin_descriptor() {                                                    \
        static const DocintelPluginDescriptor descriptor{                             \
            DOCINTEL_PLUGIN_ABI_MAJOR,                                                \
            DOCINTEL_PLUGIN_ABI_MINOR,                                                \
            DOCINTEL_PLUGIN_BUILD_ID,                                                 \
            plugin_name,                                                              \
            plugin_version,                                                           \
            []() -> docintel::plugin::Plugin* { return new PluginClass(); },          \
            [](docintel::plugin::Plugin* p) { delete p; }};                           \
        return &descriptor;                                                           \
    }
