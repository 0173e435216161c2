// Registration refuses at start-up what would otherwise fail case by case at run time.
#include "core/catalogue.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

namespace memwall {
namespace {

std::vector<Counter> no_counters(const Params&, const MemoryHierarchy&) { return {}; }

Family family(const std::string& name) {
    Family f;
    f.name = name;
    f.problem_axes = {int_axis("n", {1}, "elements")};
    return f;
}

Variant variant(const std::string& name, Backend backend = Backend::cpu) {
    Variant v;
    v.name = name;
    v.backend = backend;
    v.model = no_counters;
    return v;
}

std::string refusal(const std::function<void()>& registration) {
    try {
        registration();
    } catch (const std::logic_error& e) {
        return e.what();
    }
    return "accepted";
}

TEST(Catalogue, AFamilyRegisteredTwiceIsRefused) {
    Catalogue c;
    c.add_family(family("toy"));
    EXPECT_EQ(refusal([&] { c.add_family(family("toy")); }), "family 'toy' registered twice");
}

TEST(Catalogue, AVariantRegisteredTwiceForOneBackendIsRefused) {
    Catalogue c;
    c.add_family(family("toy"));
    c.add_variant("toy", variant("a"));
    c.add_variant("toy", variant("a", Backend::cuda_emu));  // another backend: another variant
    EXPECT_EQ(refusal([&] { c.add_variant("toy", variant("a")); }), "variant 'toy/a' registered twice for backend cpu");
    Family f = family("given");
    f.variants = {variant("b"), variant("b")};
    EXPECT_EQ(refusal([&] { c.add_family(std::move(f)); }), "variant 'given/b' registered twice for backend cpu");
}

TEST(Catalogue, AVariantWithoutAModelIsRefusedAtRegistration) {
    Catalogue c;
    c.add_family(family("toy"));
    Variant v = variant("bare");
    v.model = nullptr;
    EXPECT_EQ(refusal([&] { c.add_variant("toy", v); }),
              "variant 'toy/bare' (cpu) has no model: set Variant::model or input_model");
    Family f = family("given");
    f.variants = {v};
    EXPECT_NE(refusal([&] { c.add_family(std::move(f)); }).find("has no model"), std::string::npos);
    // A model of the workload is a model too.
    v.input_model = [](const Workload&, const Params&, const MemoryHierarchy&) { return std::vector<Counter>{}; };
    c.add_variant("toy", v);
    EXPECT_NE(c.family("toy").find("bare", Backend::cpu), nullptr);
}

TEST(Catalogue, AVariantOfNoFamilyIsRefused) {
    Catalogue c;
    EXPECT_EQ(refusal([&] { c.add_variant("none", variant("a")); }), "no family 'none' to add variant 'a' to");
}

}  // namespace
}  // namespace memwall
