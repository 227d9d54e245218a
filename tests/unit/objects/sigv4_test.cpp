// The SigV4 signer against the examples the AWS documentation publishes (the IAM example of
// "Signature Version 4 signing process" and the S3 API reference's GET Object and presigned
// URL examples): the same inputs must give the same canonical request hash and signatures.

#include <gtest/gtest.h>

#include "common/digest.h"
#include "objects/sigv4.h"

namespace docintel::objects {
namespace {

const char* const kEmptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

TEST(SigV4, TheIamExampleOfTheSigningProcess) {
    const SigV4Key key{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1",
                       "iam"};
    SigV4Request r;
    r.method = "GET";
    r.path = "/";
    r.query = {{"Action", "ListUsers"}, {"Version", "2010-05-08"}};
    r.headers = {{"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"},
                 {"Host", "iam.amazonaws.com"},
                 {"X-Amz-Date", "20150830T123600Z"}};
    const std::string canonical = canonicalRequest(r);
    EXPECT_EQ(common::toHex(common::sha256(canonical)),
              "f536975d06c0309214f805bb90ccff089219ecd68b2577efef23edd43b7e1a59")
        << canonical;
    EXPECT_EQ(authorization(key, r, "20150830T123600Z"),
              "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, "
              "SignedHeaders=content-type;host;x-amz-date, "
              "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
}

const SigV4Key kS3Key{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                      "us-east-1", "s3"};

TEST(SigV4, TheS3GetObjectExample) {
    SigV4Request r;
    r.method = "GET";
    r.path = "/test.txt";
    r.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                 {"Range", "bytes=0-9"},
                 {"x-amz-content-sha256", kEmptyHash},
                 {"x-amz-date", "20130524T000000Z"}};
    r.payload_hash = kEmptyHash;
    EXPECT_EQ(authorization(kS3Key, r, "20130524T000000Z"),
              "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
              "aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
              "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4, TheS3PresignedUrlExample) {
    SigV4Request r;
    r.method = "GET";
    r.path = "/test.txt";
    r.headers = {{"host", "examplebucket.s3.amazonaws.com"}};
    const std::string url = presignedUrl(kS3Key, r, "https://examplebucket.s3.amazonaws.com",
                                         "20130524T000000Z", 86400);
    EXPECT_EQ(url,
              "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
              "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
              "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
              "&X-Amz-Signature="
              "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404");
}

TEST(SigV4, KeysAreEncodedOnceAndSlashesKept) {
    EXPECT_EQ(uriEncode("a b/c+d~e_f.g-h", true), "a%20b/c%2Bd~e_f.g-h");
    EXPECT_EQ(uriEncode("a/b=c&d", false), "a%2Fb%3Dc%26d");
    EXPECT_EQ(uriEncode("\xC3\xA9", false), "%C3%A9");
    // Signed headers a client must send are part of the signature: another content type is
    // another URL.
    SigV4Request r;
    r.method = "PUT";
    r.path = "/docs/report.pdf";
    r.headers = {{"host", "127.0.0.1:8333"}, {"content-type", "application/pdf"}};
    const auto pdf = presignedUrl(kS3Key, r, "http://127.0.0.1:8333", "20261126T000000Z", 900);
    r.headers["content-type"] = "text/plain";
    const auto text = presignedUrl(kS3Key, r, "http://127.0.0.1:8333", "20261126T000000Z", 900);
    EXPECT_NE(pdf, text);
    EXPECT_NE(pdf.find("X-Amz-SignedHeaders=content-type%3Bhost"), std::string::npos) << pdf;
}

}  // namespace
}  // namespace docintel::objects
