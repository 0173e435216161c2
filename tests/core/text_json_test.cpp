// Text that is not UTF-8 (a path is bytes) in JSON: written so nlohmann's dump takes it, read
// back exactly; UTF-8 text stays a plain string.
#include "core/text_json.hpp"

#include <gtest/gtest.h>

#include "core/params.hpp"

namespace memwall {
namespace {

TEST(TextJson, TellsUtf8FromOtherBytes) {
    for (const char* ok : {"", "plain", "caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xef\xbf\xbf"})
        EXPECT_TRUE(is_utf8(ok)) << ok;
    for (const char* bad : {"\xff", "a\x80", "\xc3", "\xe2\x82", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
                            "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80"})
        EXPECT_FALSE(is_utf8(bad)) << bad;
}

TEST(TextJson, OtherBytesRoundTrip) {
    EXPECT_EQ(text_to_json("caf\xc3\xa9"), nlohmann::json("caf\xc3\xa9"));
    const std::string path = "/data/m\xff\x01.mtx";
    const nlohmann::json j = text_to_json(path);
    EXPECT_EQ(j, (nlohmann::json{{"bytes", "2f646174612f6dff012e6d7478"}}));
    EXPECT_EQ(text_from_json(nlohmann::json::parse(j.dump())), path);
    EXPECT_EQ(text_from_json(nlohmann::json{{"bytes", "f"}}), std::nullopt);
    EXPECT_EQ(text_from_json(nlohmann::json{{"bytes", "zz"}}), std::nullopt);
    EXPECT_EQ(text_from_json(nlohmann::json(3)), std::nullopt);
}

// A matrix path with byte 0xFF: the problem's canonical text (its key in the database, sent to
// case workers) threw nlohmann's type_error.316; now it is stored and read back as it was.
TEST(TextJson, ParamsWithAPathOfAnyBytesRoundTrip) {
    Params p;
    p.set("matrix", std::string("/tmp/m\xff.mtx"));
    p.set("nx", std::int64_t{3});
    const std::string text = p.canonical();
    EXPECT_TRUE(is_utf8(text));
    EXPECT_EQ(Params::from_json(nlohmann::json::parse(text)).str("matrix"), "/tmp/m\xff.mtx");
    Params utf8;
    utf8.set("matrix", std::string("/tmp/m.mtx"));
    EXPECT_EQ(utf8.canonical(), R"({"matrix":"/tmp/m.mtx"})");  // as stored before
}

}  // namespace
}  // namespace memwall
