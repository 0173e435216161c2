#include "tuner/objective.hpp"

#include <array>
#include <utility>

namespace memwall {

namespace {
constexpr std::array<std::pair<EvalStatus, std::string_view>, 5> kStatusNames{{
    {EvalStatus::ok, "ok"},
    {EvalStatus::invalid, "invalid"},
    {EvalStatus::compile_failed, "compile_failed"},
    {EvalStatus::runtime_failed, "runtime_failed"},
    {EvalStatus::failed, "failed"},
}};
}  // namespace

std::string_view to_string(EvalStatus s) {
    for (const auto& [status, name] : kStatusNames)
        if (status == s) return name;
    return "unknown";
}

std::optional<EvalStatus> eval_status_from(std::string_view s) {
    for (const auto& [status, name] : kStatusNames)
        if (name == s) return status;
    return std::nullopt;
}

}  // namespace memwall
