#include "video/media.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <regex>
#include <sstream>

namespace docintel::video {
namespace {

struct FormatCloser {
    void operator()(AVFormatContext* c) const { avformat_close_input(&c); }
};
struct CodecFreer {
    void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct FrameFreer {
    void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketFreer {
    void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct SwrFreer {
    void operator()(SwrContext* s) const { swr_free(&s); }
};
struct SwsFreer {
    void operator()(SwsContext* s) const { sws_freeContext(s); }
};
using Format = std::unique_ptr<AVFormatContext, FormatCloser>;
using Codec = std::unique_ptr<AVCodecContext, CodecFreer>;
using FramePtr = std::unique_ptr<AVFrame, FrameFreer>;
using Packet = std::unique_ptr<AVPacket, PacketFreer>;

plugin::Error unreadable(const std::string& message) {
    return plugin::Error{"unreadable_media", message, 422};
}

std::string averror(int code) {
    char buf[AV_ERROR_MAX_STRING_SIZE] = {0};
    av_strerror(code, buf, sizeof buf);
    return buf;
}

plugin::Result<Format> open(const std::string& path) {
    // libav* would write each damaged packet to stderr; errors come back as results instead.
    static std::once_flag quiet;
    std::call_once(quiet, [] { av_log_set_level(AV_LOG_FATAL); });
    AVFormatContext* raw = nullptr;
    if (int rc = avformat_open_input(&raw, path.c_str(), nullptr, nullptr); rc < 0) {
        return unreadable("the file is not a readable media file (" + averror(rc) + ")");
    }
    Format format(raw);
    if (int rc = avformat_find_stream_info(format.get(), nullptr); rc < 0) {
        return unreadable("the media streams cannot be read (" + averror(rc) + ")");
    }
    return format;
}

/// A decoder opened for stream `index`; null when libavcodec has none for it.
Codec openDecoder(const AVStream* stream, int threads) {
    const AVCodec* codec = avcodec_find_decoder(stream->codecpar->codec_id);
    if (!codec) return nullptr;
    Codec context(avcodec_alloc_context3(codec));
    if (!context || avcodec_parameters_to_context(context.get(), stream->codecpar) < 0) {
        return nullptr;
    }
    context->thread_count = threads;
    context->pkt_timebase = stream->time_base;
    if (avcodec_open2(context.get(), codec, nullptr) < 0) return nullptr;
    return context;
}

bool isTextSubtitle(const AVStream* stream) {
    if (stream->codecpar->codec_type != AVMEDIA_TYPE_SUBTITLE) return false;
    const AVCodecDescriptor* d = avcodec_descriptor_get(stream->codecpar->codec_id);
    return d && (d->props & AV_CODEC_PROP_TEXT_SUB);
}

double seconds(std::int64_t ts, AVRational base) {
    return ts == AV_NOPTS_VALUE ? 0.0 : static_cast<double>(ts) * av_q2d(base);
}

/// The text of an ASS dialogue line ("ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,
/// Effect,Text") without override tags; plain text when it is not one.
std::string assText(const std::string& line) {
    std::string text = line;
    std::size_t pos = 0;
    int commas = 0;
    for (std::size_t i = 0; i < line.size() && commas < 8; ++i) {
        if (line[i] == ',') {
            ++commas;
            pos = i + 1;
        }
    }
    if (commas == 8) text = line.substr(pos);
    std::string out;
    bool in_tag = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '{') in_tag = true;
        if (!in_tag) {
            if (c == '\\' && i + 1 < text.size() && (text[i + 1] == 'N' || text[i + 1] == 'n')) {
                out += ' ';
                ++i;
            } else {
                out += c;
            }
        }
        if (c == '}') in_tag = false;
    }
    return out;
}

std::string collapseSpaces(const std::string& text) {
    std::string out;
    bool space = false;
    for (const char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

std::string stripMarkup(const std::string& text) {
    static const std::regex tags("<[^>]*>");
    return collapseSpaces(std::regex_replace(text, tags, ""));
}

/// "hh:mm:ss,mmm", "mm:ss.mmm" → seconds; negative when malformed.
double timecode(const std::string& s) {
    double total = 0;
    int parts = 0;
    std::string field;
    std::istringstream in(s);
    while (std::getline(in, field, ':')) {
        std::replace(field.begin(), field.end(), ',', '.');
        char* end = nullptr;
        const double v = std::strtod(field.c_str(), &end);
        if (end == field.c_str()) return -1;
        total = total * 60 + v;
        ++parts;
    }
    return parts >= 2 ? total : -1;
}

}  // namespace

plugin::Result<MediaInfo> probe(const std::string& path) {
    auto format = open(path);
    if (!format) return format.error();
    AVFormatContext* f = format->get();
    MediaInfo info;
    info.container = f->iformat ? f->iformat->name : "";
    if (f->duration != AV_NOPTS_VALUE) {
        info.duration_seconds = static_cast<double>(f->duration) / AV_TIME_BASE;
    }
    info.bitrate = f->bit_rate;
    bool any = false;
    for (unsigned i = 0; i < f->nb_streams; ++i) {
        const AVStream* s = f->streams[i];
        const AVCodecParameters* p = s->codecpar;
        const char* name = avcodec_get_name(p->codec_id);
        if (p->codec_type == AVMEDIA_TYPE_VIDEO && info.video_codec.empty() &&
            !(s->disposition & AV_DISPOSITION_ATTACHED_PIC)) {
            any = true;
            info.video_codec = name;
            info.width = p->width;
            info.height = p->height;
            const AVRational rate = s->avg_frame_rate.num ? s->avg_frame_rate : s->r_frame_rate;
            info.fps = rate.den ? av_q2d(rate) : 0;
            info.frame_count = s->nb_frames;
            if (info.duration_seconds <= 0)
                info.duration_seconds = seconds(s->duration, s->time_base);
        } else if (p->codec_type == AVMEDIA_TYPE_AUDIO && info.audio_codec.empty()) {
            any = true;
            info.audio_codec = name;
            if (info.duration_seconds <= 0)
                info.duration_seconds = seconds(s->duration, s->time_base);
        } else if (isTextSubtitle(s)) {
            info.has_subtitles = true;
        }
    }
    if (!any) return unreadable("the file has neither a video nor an audio stream");
    if (info.frame_count <= 0 && info.fps > 0) {
        info.frame_count = std::llround(info.fps * info.duration_seconds);
    }
    if (!std::isfinite(info.duration_seconds) || info.duration_seconds < 0) {
        info.duration_seconds = 0;
    }
    return info;
}

plugin::Result<std::vector<float>> decodeAudio16kMono(const std::string& path) {
    auto format = open(path);
    if (!format) return format.error();
    AVFormatContext* f = format->get();
    const int index = av_find_best_stream(f, AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
    std::vector<float> pcm;
    if (index < 0) return pcm;
    Codec decoder = openDecoder(f->streams[index], 1);
    if (!decoder) return unreadable("the audio codec cannot be decoded");

    AVChannelLayout mono = AV_CHANNEL_LAYOUT_MONO;
    AVChannelLayout in_layout{};  // zeroed: av_channel_layout_copy uninits its target first
    if (decoder->ch_layout.nb_channels > 0) {
        av_channel_layout_copy(&in_layout, &decoder->ch_layout);
    } else {
        av_channel_layout_default(&in_layout, 1);
    }
    SwrContext* raw_swr = nullptr;
    const int rc = swr_alloc_set_opts2(&raw_swr, &mono, AV_SAMPLE_FMT_FLT, 16000, &in_layout,
                                       decoder->sample_fmt, decoder->sample_rate, 0, nullptr);
    av_channel_layout_uninit(&in_layout);
    std::unique_ptr<SwrContext, SwrFreer> swr(raw_swr);
    if (rc < 0 || swr_init(swr.get()) < 0) return unreadable("the audio cannot be resampled");

    Packet packet(av_packet_alloc());
    FramePtr frame(av_frame_alloc());
    auto convert = [&](const AVFrame* in) {
        const int room = swr_get_out_samples(swr.get(), in ? in->nb_samples : 0);
        if (room <= 0) return;
        const std::size_t at = pcm.size();
        pcm.resize(at + room);
        auto* out = reinterpret_cast<std::uint8_t*>(pcm.data() + at);
        const int n =
            swr_convert(swr.get(), &out, room,
                        in ? const_cast<const std::uint8_t**>(in->extended_data) : nullptr,
                        in ? in->nb_samples : 0);
        pcm.resize(at + std::max(n, 0));
        // A downmix of loud stereo can pass full scale; whisper.cpp expects [-1, 1].
        for (std::size_t i = at; i < pcm.size(); ++i) pcm[i] = std::clamp(pcm[i], -1.0f, 1.0f);
    };
    auto drain = [&] {
        while (avcodec_receive_frame(decoder.get(), frame.get()) == 0) {
            convert(frame.get());
            av_frame_unref(frame.get());
        }
    };
    while (av_read_frame(f, packet.get()) >= 0) {
        if (packet->stream_index == index) {
            // A damaged packet is skipped; the rest of the stream still decodes.
            if (avcodec_send_packet(decoder.get(), packet.get()) >= 0) drain();
        }
        av_packet_unref(packet.get());
    }
    avcodec_send_packet(decoder.get(), nullptr);
    drain();
    convert(nullptr);
    return pcm;
}

plugin::Result<std::vector<Frame>> grabFrames(const std::string& path,
                                              const std::vector<double>& timestamps,
                                              int max_width) {
    auto format = open(path);
    if (!format) return format.error();
    AVFormatContext* f = format->get();
    const int index = av_find_best_stream(f, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    std::vector<Frame> frames;
    if (index < 0) return frames;
    AVStream* stream = f->streams[index];
    Codec decoder = openDecoder(stream, 2);
    if (!decoder) return unreadable("the video codec cannot be decoded");
    const AVCodec* jpeg_codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG);
    if (!jpeg_codec) return plugin::Error::internal("no JPEG encoder in libavcodec");

    std::vector<double> wanted = timestamps;
    std::sort(wanted.begin(), wanted.end());
    Packet packet(av_packet_alloc());
    FramePtr decoded(av_frame_alloc());

    auto encode = [&](const AVFrame* in, double at) -> plugin::Status {
        int w = in->width;
        int h = in->height;
        if (w <= 0 || h <= 0) return {};
        if (w > max_width) {
            h = std::max(2, static_cast<int>(std::lround(static_cast<double>(h) * max_width / w)));
            w = max_width;
        }
        w &= ~1;
        h &= ~1;
        const auto src = static_cast<AVPixelFormat>(in->format);
        std::unique_ptr<SwsContext, SwsFreer> to_yuv(
            sws_getContext(in->width, in->height, src, w, h, AV_PIX_FMT_YUVJ420P, SWS_BILINEAR,
                           nullptr, nullptr, nullptr));
        std::unique_ptr<SwsContext, SwsFreer> to_gray(
            sws_getContext(in->width, in->height, src, w, h, AV_PIX_FMT_GRAY8, SWS_BILINEAR,
                           nullptr, nullptr, nullptr));
        if (!to_yuv || !to_gray) return unreadable("a frame's pixel format cannot be converted");
        FramePtr yuv(av_frame_alloc());
        yuv->format = AV_PIX_FMT_YUVJ420P;
        yuv->width = w;
        yuv->height = h;
        if (av_frame_get_buffer(yuv.get(), 0) < 0) return plugin::Error::internal("out of memory");
        sws_scale(to_yuv.get(), in->data, in->linesize, 0, in->height, yuv->data, yuv->linesize);

        Frame out;
        out.timestamp = at;
        out.width = w;
        out.height = h;
        out.gray.resize(static_cast<std::size_t>(w) * h);
        std::uint8_t* gray_planes[4] = {out.gray.data(), nullptr, nullptr, nullptr};
        int gray_lines[4] = {w, 0, 0, 0};
        sws_scale(to_gray.get(), in->data, in->linesize, 0, in->height, gray_planes, gray_lines);

        Codec jpeg(avcodec_alloc_context3(jpeg_codec));
        jpeg->pix_fmt = AV_PIX_FMT_YUVJ420P;
        jpeg->width = w;
        jpeg->height = h;
        jpeg->time_base = AVRational{1, 25};
        jpeg->flags |= AV_CODEC_FLAG_QSCALE;
        jpeg->global_quality = FF_QP2LAMBDA * 4;
        if (avcodec_open2(jpeg.get(), jpeg_codec, nullptr) < 0) {
            return plugin::Error::internal("the JPEG encoder does not open");
        }
        yuv->quality = jpeg->global_quality;
        yuv->pict_type = AV_PICTURE_TYPE_I;
        Packet encoded(av_packet_alloc());
        if (avcodec_send_frame(jpeg.get(), yuv.get()) < 0 ||
            avcodec_receive_packet(jpeg.get(), encoded.get()) < 0) {
            return plugin::Error::internal("a frame could not be encoded as JPEG");
        }
        out.jpeg.assign(reinterpret_cast<const char*>(encoded->data), encoded->size);
        frames.push_back(std::move(out));
        return {};
    };

    for (const double at : wanted) {
        const auto target = static_cast<std::int64_t>(at / av_q2d(stream->time_base));
        if (av_seek_frame(f, index, target, AVSEEK_FLAG_BACKWARD) < 0) {
            av_seek_frame(f, index, 0, AVSEEK_FLAG_BACKWARD);
        }
        avcodec_flush_buffers(decoder.get());
        FramePtr best(av_frame_alloc());
        bool have = false;
        bool reached = false;
        // Keeps the last frame shown at or before `at` (or the first one after a seek past it).
        const auto receive = [&] {
            while (avcodec_receive_frame(decoder.get(), decoded.get()) == 0) {
                const double t = seconds(decoded->best_effort_timestamp, stream->time_base);
                if (!have || t <= at + 1e-6) {
                    av_frame_unref(best.get());
                    av_frame_move_ref(best.get(), decoded.get());
                    have = true;
                } else {
                    av_frame_unref(decoded.get());
                }
                if (t >= at) reached = true;
            }
        };
        while (!reached && av_read_frame(f, packet.get()) >= 0) {
            if (packet->stream_index == index &&
                avcodec_send_packet(decoder.get(), packet.get()) >= 0) {
                receive();
            }
            av_packet_unref(packet.get());
        }
        if (!reached) {  // the end of the stream: the decoder's last frames
            avcodec_send_packet(decoder.get(), nullptr);
            receive();
        }
        if (have) {
            if (auto ok = encode(best.get(), at); !ok) return ok.error();
        }
    }
    return frames;
}

double pictureChange(const Frame& a, const Frame& b) {
    if (a.width != b.width || a.height != b.height || a.gray.empty() || b.gray.empty()) {
        return 255;
    }
    const int step = std::max(1, std::min(a.width, a.height) / 64);
    double sum = 0;
    long n = 0;
    for (int y = 0; y < a.height; y += step) {
        for (int x = 0; x < a.width; x += step) {
            const std::size_t i = static_cast<std::size_t>(y) * a.width + x;
            sum += std::abs(static_cast<int>(a.gray[i]) - static_cast<int>(b.gray[i]));
            ++n;
        }
    }
    return n ? sum / n : 0;
}

plugin::Result<std::vector<Cue>> subtitleCues(const std::string& path) {
    auto format = open(path);
    if (!format) return format.error();
    AVFormatContext* f = format->get();
    int index = -1;
    for (unsigned i = 0; i < f->nb_streams && index < 0; ++i) {
        if (isTextSubtitle(f->streams[i])) index = static_cast<int>(i);
    }
    std::vector<Cue> cues;
    if (index < 0) return cues;
    AVStream* stream = f->streams[index];
    Codec decoder = openDecoder(stream, 1);
    if (!decoder) return cues;
    Packet packet(av_packet_alloc());
    while (av_read_frame(f, packet.get()) >= 0) {
        if (packet->stream_index == index) {
            AVSubtitle sub{};
            int got = 0;
            if (avcodec_decode_subtitle2(decoder.get(), &sub, &got, packet.get()) >= 0 && got) {
                Cue cue;
                cue.start =
                    seconds(packet->pts, stream->time_base) + sub.start_display_time / 1000.0;
                cue.end = packet->duration > 0
                              ? seconds(packet->pts + packet->duration, stream->time_base)
                              : cue.start + sub.end_display_time / 1000.0;
                std::string text;
                for (unsigned r = 0; r < sub.num_rects; ++r) {
                    const AVSubtitleRect* rect = sub.rects[r];
                    if (rect->ass)
                        text += " " + assText(rect->ass);
                    else if (rect->text)
                        text += " " + std::string(rect->text);
                }
                cue.text = stripMarkup(text);
                if (!cue.text.empty()) cues.push_back(std::move(cue));
                avsubtitle_free(&sub);
            }
        }
        av_packet_unref(packet.get());
    }
    std::sort(cues.begin(), cues.end(),
              [](const Cue& a, const Cue& b) { return a.start < b.start; });
    return cues;
}

std::vector<Cue> parseSubtitleText(const std::string& text) {
    std::vector<Cue> cues;
    std::istringstream in(text);
    std::string line;
    Cue current;
    bool open_cue = false;
    auto close = [&] {
        current.text = stripMarkup(current.text);
        if (open_cue && !current.text.empty()) cues.push_back(current);
        current = Cue{};
        open_cue = false;
    };
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto arrow = line.find("-->");
        if (arrow != std::string::npos) {
            close();
            std::string left = line.substr(0, arrow);
            std::string right = line.substr(arrow + 3);
            auto trim = [](std::string s) {
                const auto a = s.find_first_not_of(" \t");
                if (a == std::string::npos) return std::string();
                s = s.substr(a);
                return s.substr(0, s.find_first_of(" \t"));  // drops WebVTT cue settings
            };
            current.start = timecode(trim(left));
            current.end = timecode(trim(right));
            open_cue = current.start >= 0 && current.end >= current.start;
            continue;
        }
        if (line.empty()) {
            close();
            continue;
        }
        if (open_cue) current.text += (current.text.empty() ? "" : " ") + line;
    }
    close();
    return cues;
}

}  // namespace docintel::video
