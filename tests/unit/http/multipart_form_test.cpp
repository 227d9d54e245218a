// The multipart/form-data reader of plugin routes with file parts (http::parseMultipartForm,
// decision 0069): text fields, file parts with their bytes intact, and the bodies it refuses.

#include "http/multipart_form.h"

#include <gtest/gtest.h>

#include <string>

namespace docintel::http {
namespace {

const std::string kType = "multipart/form-data; boundary=XyZ";

std::string part(const std::string& disposition, const std::string& type,
                 const std::string& bytes) {
    std::string out = "--XyZ\r\nContent-Disposition: form-data; " + disposition + "\r\n";
    if (!type.empty()) out += "Content-Type: " + type + "\r\n";
    return out + "\r\n" + bytes + "\r\n";
}

TEST(MultipartForm, ReadsFieldsAndFilesWithBinaryBytes) {
    const std::string binary("RIFF\0\x01\xff\r\n--X\r\nWAVE", 17);
    const std::string body = part("name=\"speaker\"", "", "Priya Sharma") +
                             part("name=\"audio\"; filename=\"turn.wav\"", "audio/wav", binary) +
                             "--XyZ--\r\n";
    auto form = parseMultipartForm(kType, body);
    ASSERT_TRUE(form);
    EXPECT_EQ(form->fields, nlohmann::json({{"speaker", "Priya Sharma"}}));
    ASSERT_EQ(form->files.size(), 1u);
    EXPECT_EQ(form->files[0].field, "audio");
    EXPECT_EQ(form->files[0].filename, "turn.wav");
    EXPECT_EQ(form->files[0].content_type, "audio/wav");
    EXPECT_EQ(form->files[0].bytes, binary);
}

TEST(MultipartForm, KeepsTheFirstValueOfARepeatedField) {
    const std::string body =
        part("name=\"a\"", "", "one") + part("name=\"a\"", "", "two") + "--XyZ--\r\n";
    auto form = parseMultipartForm(kType, body);
    ASSERT_TRUE(form);
    EXPECT_EQ(form->fields["a"], "one");
}

TEST(MultipartForm, RefusesWhatIsNotACompleteForm) {
    const std::string whole = part("name=\"a\"", "", "one") + "--XyZ--\r\n";
    EXPECT_FALSE(parseMultipartForm("application/json", whole));
    EXPECT_FALSE(parseMultipartForm("multipart/form-data", whole));          // no boundary
    EXPECT_FALSE(parseMultipartForm(kType, part("name=\"a\"", "", "cut")));  // no closing one
    EXPECT_FALSE(parseMultipartForm(kType, part("filename=\"x.wav\"", "", "x") + "--XyZ--\r\n"));
    std::string many;
    for (int i = 0; i < 101; ++i) many += part("name=\"f" + std::to_string(i) + "\"", "", "v");
    EXPECT_FALSE(parseMultipartForm(kType, many + "--XyZ--\r\n"));
}

TEST(MultipartForm, RecognisesTheMediaTypeWhateverItsCaseAndParameters) {
    EXPECT_TRUE(isMultipartForm("Multipart/Form-Data; boundary=abc"));
    EXPECT_TRUE(isMultipartForm("multipart/form-data"));
    EXPECT_FALSE(isMultipartForm("multipart/mixed; boundary=abc"));
    EXPECT_FALSE(isMultipartForm(""));
}

}  // namespace
}  // namespace docintel::http
