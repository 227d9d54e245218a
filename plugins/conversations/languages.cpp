#include "conversations/languages.h"

#include <array>
#include <cctype>
#include <map>

#include "conversations/text.h"

namespace docintel::conversations {

namespace {

/// One text per language, in supportedLanguages() order.
using Texts = std::array<const char*, 5>;

std::size_t languageIndex(std::string_view language) {
    const auto& all = supportedLanguages();
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (all[i] == language) return i;
    }
    return 0;  // en-US
}

const char* pick(const Texts& texts, std::string_view language) {
    return texts[languageIndex(language)];
}

std::string replaced(std::string text, const std::string& slot, const std::string& value) {
    const auto at = text.find(slot);
    if (at != std::string::npos) text.replace(at, slot.size(), value);
    return text;
}

const std::map<std::string, Texts>& fieldQuestions() {
    static const std::map<std::string, Texts> questions = {
        {"information_provided",
         {"What information would you like to share with us today?",
          "¿Qué información le gustaría compartir con nosotros hoy?",
          "আজ আপনি আমাদের সঙ্গে কী তথ্য শেয়ার করতে চান?",
          "आज आप हमारे साथ कौन-सी जानकारी साझा करना चाहेंगे?",
          "ما المعلومات التي تود مشاركتها معنا اليوم؟"}},
        {"customer_identity",
         {"Could you tell me who you are, or which customer or organisation you represent?",
          "¿Podría decirme quién es usted, o a qué cliente u organización representa?",
          "আপনি কে, অথবা কোন গ্রাহক বা প্রতিষ্ঠানের পক্ষ থেকে কথা বলছেন, তা কি বলবেন?",
          "क्या आप बता सकते हैं कि आप कौन हैं, या आप किस ग्राहक या संगठन की ओर से बात कर रहे "
          "हैं?",
          "هل يمكنك أن تخبرني من أنت، أو أي عميل أو جهة تمثل؟"}},
        {"subject",
         {"What is the subject of this conversation?", "¿Cuál es el tema de esta conversación?",
          "এই কথোপকথনের বিষয় কী?", "इस बातचीत का विषय क्या है?", "ما موضوع هذه المحادثة؟"}},
        {"requested_action",
         {"What would you like us to do for you?", "¿Qué le gustaría que hiciéramos por usted?",
          "আপনি আমাদের কাছ থেকে কী করাতে চান?", "आप चाहते हैं कि हम आपके लिए क्या करें?",
          "ما الذي تود منا أن نفعله من أجلك؟"}},
        {"follow_up_actions",
         {"What follow-up actions should happen after this conversation?",
          "¿Qué acciones de seguimiento deben realizarse después de esta conversación?",
          "এই কথোপকথনের পরে কী কী পরবর্তী পদক্ষেপ নেওয়া উচিত?",
          "इस बातचीत के बाद कौन-से अगले कदम उठाए जाने चाहिए?",
          "ما إجراءات المتابعة التي يجب اتخاذها بعد هذه المحادثة؟"}},
        {"purpose",
         {"What is the purpose of this conversation?",
          "¿Cuál es el propósito de esta conversación?", "এই কথোপকথনের উদ্দেশ্য কী?",
          "इस बातचीत का उद्देश्य क्या है?", "ما الغرض من هذه المحادثة؟"}},
        {"key_facts",
         {"What are the key facts we should record?",
          "¿Cuáles son los datos clave que debemos registrar?",
          "কোন গুরুত্বপূর্ণ তথ্যগুলো আমাদের লিখে রাখা উচিত?", "हमें कौन-से मुख्य तथ्य दर्ज करने चाहिए?",
          "ما الحقائق الرئيسية التي يجب أن نسجلها؟"}},
        {"decisions",
         {"Were any decisions made? If so, what were they?",
          "¿Se tomó alguna decisión? Si es así, ¿cuál?",
          "কোনো সিদ্ধান্ত নেওয়া হয়েছে কি? হলে, সেগুলো কী?",
          "क्या कोई निर्णय लिए गए? यदि हाँ, तो वे क्या थे?",
          "هل اتُّخذت أي قرارات؟ إن كان الأمر كذلك، فما هي؟"}},
        {"participant_name",
         {"May I have your name, please?", "¿Me podría decir su nombre, por favor?",
          "অনুগ্রহ করে আপনার নামটি বলবেন?", "क्या मैं आपका नाम जान सकता हूँ?",
          "هل لي أن أعرف اسمك من فضلك؟"}},
        {"request_summary",
         {"How can we help you? Please describe your request briefly.",
          "¿En qué podemos ayudarle? Describa brevemente su solicitud.",
          "আমরা আপনাকে কীভাবে সাহায্য করতে পারি? সংক্ষেপে আপনার অনুরোধটি বলুন।",
          "हम आपकी कैसे मदद कर सकते हैं? कृपया अपना अनुरोध संक्षेप में बताइए।",
          "كيف يمكننا مساعدتك؟ يرجى وصف طلبك باختصار."}},
        {"urgency",
         {"How urgent is this for you?", "¿Qué tan urgente es esto para usted?",
          "বিষয়টি আপনার জন্য কতটা জরুরি?", "यह आपके लिए कितना ज़रूरी है?",
          "ما مدى استعجال هذا الأمر بالنسبة لك؟"}},
        {"preferred_follow_up",
         {"How would you prefer us to follow up with you: by email, phone or text message?",
          "¿Cómo prefiere que le contactemos: por correo electrónico, teléfono o mensaje de "
          "texto?",
          "আমরা আপনার সঙ্গে কীভাবে যোগাযোগ করলে ভালো হয়: ইমেল, ফোন না টেক্সট মেসেজে?",
          "आप चाहेंगे कि हम आपसे कैसे संपर्क करें: ईमेल, फ़ोन या टेक्स्ट संदेश से?",
          "كيف تفضّل أن نتابع معك: عبر البريد الإلكتروني أم الهاتف أم رسالة نصية؟"}},
        {"topic",
         {"What topic will we be discussing today?", "¿De qué tema vamos a hablar hoy?",
          "আজ আমরা কোন বিষয় নিয়ে আলোচনা করব?", "आज हम किस विषय पर चर्चा करेंगे?",
          "ما الموضوع الذي سنناقشه اليوم؟"}},
        {"expertise",
         {"Could you describe your expertise and experience in this area?",
          "¿Podría describir su experiencia y conocimientos en este campo?",
          "এই বিষয়ে আপনার দক্ষতা ও অভিজ্ঞতা সম্পর্কে বলবেন?",
          "क्या आप इस क्षेत्र में अपनी विशेषज्ञता और अनुभव के बारे में बता सकते हैं?",
          "هل يمكنك أن تصف خبرتك وتجربتك في هذا المجال؟"}},
        {"examples",
         {"Can you give me one or two concrete examples?",
          "¿Puede darme uno o dos ejemplos concretos?",
          "আপনি কি এক বা দুটি বাস্তব উদাহরণ দিতে পারেন?", "क्या आप एक या दो ठोस उदाहरण दे सकते हैं?",
          "هل يمكنك أن تعطيني مثالًا أو مثالين ملموسين؟"}},
        {"risks",
         {"What risks or pitfalls should people be aware of?",
          "¿Qué riesgos o problemas se deberían tener en cuenta?",
          "মানুষের কোন ঝুঁকি বা সমস্যার বিষয়ে সচেতন থাকা উচিত?",
          "लोगों को किन जोखिमों या कठिनाइयों के प्रति सावधान रहना चाहिए?",
          "ما المخاطر أو المشكلات التي يجب أن ينتبه لها الناس؟"}},
        {"recommendations",
         {"What would you recommend?", "¿Qué recomendaría usted?", "আপনার সুপারিশ কী?",
          "आपकी सिफ़ारिशें क्या हैं?", "ما توصياتك؟"}},
    };
    return questions;
}

}  // namespace

const std::vector<std::string>& supportedLanguages() {
    static const std::vector<std::string> all = {"en-US", "es-ES", "bn-BD", "hi-IN", "ar-SA"};
    return all;
}

plugin::Result<std::string> normaliseLanguage(std::string_view code) {
    std::string c = trim(std::string(code));
    if (c.empty()) return std::string(kDefaultLanguage);
    for (auto& ch : c) {
        ch = ch == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    const std::string primary = c.substr(0, c.find('-'));
    for (const auto& lang : supportedLanguages()) {
        std::string low = lang;
        for (auto& ch : low) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (low.substr(0, low.find('-')) == primary) return lang;
    }
    return plugin::Error::unprocessable("unsupported_language",
                                        "Unsupported language '" + std::string(code) +
                                            "'; use en-US, es-ES, bn-BD, hi-IN or ar-SA");
}

std::string baseLanguage(std::string_view code) {
    return std::string(code.substr(0, code.find('-')));
}

std::string fieldQuestion(const TemplateField& field, std::string_view language) {
    if (!field.question.empty()) return field.question;
    const auto& questions = fieldQuestions();
    if (const auto it = questions.find(field.key); it != questions.end()) {
        return pick(it->second, language);
    }
    static const Texts generic = {"Please tell me about {label}.", "Por favor, hábleme de {label}.",
                                  "অনুগ্রহ করে {label} সম্পর্কে বলুন।", "कृपया {label} के बारे में बताइए।",
                                  "من فضلك أخبرني عن {label}."};
    return replaced(pick(generic, language), "{label}", field.label);
}

std::string greeting(const Template& tmpl, std::string_view language) {
    static const Texts texts = {
        "Thank you for agreeing to record this conversation. I will ask a few questions and note "
        "your answers so that they can be reviewed and saved. {question}",
        "Gracias por aceptar la grabación de esta conversación. Le haré algunas preguntas y "
        "anotaré sus respuestas para que puedan revisarse y guardarse. {question}",
        "এই কথোপকথন রেকর্ড করতে সম্মতি দেওয়ার জন্য ধন্যবাদ। আমি কয়েকটি প্রশ্ন করব এবং আপনার "
        "উত্তরগুলো লিখে রাখব, যাতে সেগুলো পর্যালোচনা করে সংরক্ষণ করা যায়। {question}",
        "इस बातचीत को रिकॉर्ड करने की सहमति देने के लिए धन्यवाद। मैं कुछ प्रश्न पूछूँगा और आपके "
        "उत्तर दर्ज करूँगा, ताकि उनकी समीक्षा करके उन्हें सहेजा जा सके। {question}",
        "شكرًا لموافقتك على تسجيل هذه المحادثة. سأطرح عليك بعض الأسئلة وأدوّن إجاباتك حتى يمكن "
        "مراجعتها وحفظها. {question}"};
    const std::string question =
        tmpl.fields.empty() ? std::string() : fieldQuestion(tmpl.fields.front(), language);
    return trim(replaced(pick(texts, language), "{question}", question));
}

std::string closingQuestion(std::string_view language) {
    static const Texts texts = {
        "Thank you, I have everything I need. Is there anything else you would like to add, or "
        "shall I save this conversation?",
        "Gracias, ya tengo todo lo necesario. ¿Hay algo más que quiera añadir, o guardo esta "
        "conversación?",
        "ধন্যবাদ, আমার যা দরকার সবই পেয়েছি। আপনি কি আর কিছু যোগ করতে চান, নাকি আমি এই "
        "কথোপকথনটি সংরক্ষণ করব?",
        "धन्यवाद, मुझे आवश्यक सारी जानकारी मिल गई है। क्या आप कुछ और जोड़ना चाहेंगे, या मैं इस "
        "बातचीत को सहेज दूँ?",
        "شكرًا، لديّ كل ما أحتاجه. هل هناك أي شيء آخر تود إضافته، أم أحفظ هذه المحادثة؟"};
    return pick(texts, language);
}

std::string saveConfirmationPrompt(std::string_view language) {
    static const Texts texts = {
        "Shall I save this conversation now so that it can be reviewed? Please answer yes or no.",
        "¿Guardo ahora esta conversación para que pueda revisarse? Responda sí o no, por favor.",
        "পর্যালোচনার জন্য আমি কি এখন এই কথোপকথনটি সংরক্ষণ করব? অনুগ্রহ করে হ্যাঁ বা না বলুন।",
        "क्या मैं इस बातचीत को अभी सहेज दूँ ताकि इसकी समीक्षा हो सके? कृपया हाँ या नहीं में "
        "उत्तर दें।",
        "هل أحفظ هذه المحادثة الآن لكي تتم مراجعتها؟ يرجى الإجابة بنعم أو لا."};
    return pick(texts, language);
}

std::string consentDeclinedMessage(std::string_view language) {
    static const Texts texts = {
        "Understood. Nothing will be recorded, and this conversation session has been closed.",
        "Entendido. No se grabará nada y esta sesión de conversación se ha cerrado.",
        "বুঝেছি। কিছুই রেকর্ড করা হবে না, এবং এই কথোপকথনের সেশনটি বন্ধ করা হয়েছে।",
        "समझ गया। कुछ भी रिकॉर्ड नहीं किया जाएगा, और यह बातचीत सत्र बंद कर दिया गया है।",
        "مفهوم. لن يتم تسجيل أي شيء، وقد تم إغلاق جلسة المحادثة هذه."};
    return pick(texts, language);
}

std::vector<std::string> localisedFieldKeys() {
    std::vector<std::string> keys;
    for (const auto& [key, texts] : fieldQuestions()) keys.push_back(key);
    return keys;
}

}  // namespace docintel::conversations
