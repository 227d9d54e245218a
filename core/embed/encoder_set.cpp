#include "embed/encoder_set.h"

#include "common/log.h"

namespace docintel::embed {
namespace {

std::unique_ptr<SentenceEncoder> loadOrWarn(const std::string& models_dir, const std::string& model,
                                            SentenceEncoder::Options options) {
    auto encoder = SentenceEncoder::load(models_dir + "/" + model, options);
    if (encoder) return std::move(encoder).value();
    common::log(common::LogLevel::kWarning, "encoder_unavailable",
                {{"model", model}, {"reason", encoder.error().message}});
    return nullptr;
}

}  // namespace

EncoderSet::EncoderSet(std::string models_dir, const std::string& primary,
                       SentenceEncoder::Options options)
    : models_dir_(std::move(models_dir)),
      options_(options),
      primary_(loadOrWarn(models_dir_, primary, options)) {}

const SentenceEncoder* EncoderSet::multilingual() const {
    if (primary_ && primary_->modelName() == kMultilingualModel) return primary_.get();
    std::call_once(multilingual_once_, [this] {
        multilingual_ = loadOrWarn(models_dir_, kMultilingualModel, options_);
    });
    return multilingual_.get();
}

const SentenceEncoder* EncoderSet::find(const std::string& model) const {
    if (primary_ && primary_->modelName() == model) return primary_.get();
    return model == kMultilingualModel ? multilingual() : nullptr;
}

}  // namespace docintel::embed
