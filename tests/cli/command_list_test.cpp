// The commands are registered in one place (cli/app.cpp's add_commands); the unknown-command
// message and this check of the README's usage read them from there.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "cli/app.hpp"

namespace memwall::cli {
namespace {

std::string commands() {
    CLI::App app;
    Context ctx;
    add_commands(app, ctx);
    return command_names(app);
}

TEST(CommandList, NamesTheCommandsAUserTypesAndNotTheWorkers) {
    const std::string names = commands();
    EXPECT_EQ(names.rfind("list, run, show, export, import, ", 0), 0u) << names;
    EXPECT_EQ(names.find("worker"), std::string::npos) << names;
}

TEST(CommandList, TheReadmesUsageShowsEveryCommand) {
    std::ifstream in(MEMWALL_README);
    ASSERT_TRUE(in) << MEMWALL_README;
    std::stringstream readme;
    readme << in.rdbuf();
    std::stringstream names(commands());
    for (std::string name; std::getline(names >> std::ws, name, ',');)
        EXPECT_NE(readme.str().find("\nmemwall " + name + " "), std::string::npos)
            << "README.md's usage has no line for `memwall " << name << "`";
}

}  // namespace
}  // namespace memwall::cli
