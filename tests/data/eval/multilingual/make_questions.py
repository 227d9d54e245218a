#!/usr/bin/env python3
"""Writes questions.jsonl for the parallel multilingual set and checks that every gold answer
is a substring of its document (after whitespace normalisation).

Each fact (ml-001 .. ml-056) is asked once per language (en, es, hi, bn, ar); the row id is
"<fact>-<lang>". Split rule, fixed before any run: odd fact number -> tune, even -> report,
so one fact is in the same half in every language.

ml-001 .. ml-040 are answerable ("answerable": true). ml-041 .. ml-056 (added 2026-11-27) are
unanswerable near misses, 4 per document: a question the document's topic makes plausible, in
the document's words, whose answer the document does not state in any of the five languages
("answerable": false, "answer": null, "alternatives": []).
"""
import json, os, re, sys

LANGS = ["en", "es", "hi", "bn", "ar"]
HERE = os.path.dirname(os.path.abspath(__file__))

def F(doc, q, a, alts=None):
    """q, a: dicts lang -> text (a may be a str shared by all languages); alts: lang -> list or list for all."""
    if isinstance(a, str):
        a = {l: a for l in LANGS}
    if alts is None:
        alts = {}
    if isinstance(alts, list):
        alts = {l: alts for l in LANGS}
    return doc, q, a, alts

def Q(en, es, hi, bn, ar): return {"en": en, "es": es, "hi": hi, "bn": bn, "ar": ar}

def date_(en, es, hi, bn, ar, iso): return Q(en, es, hi, bn, ar), [iso]

d1 = date_("5 April 2025", "5 de abril de 2025", "5 अप्रैल 2025", "5 এপ্রিল 2025", "5 أبريل 2025", "2025-04-05")
d2 = date_("3 April 2025", "3 de abril de 2025", "3 अप्रैल 2025", "3 এপ্রিল 2025", "3 أبريل 2025", "2025-04-03")
d3 = date_("4 April 2025", "4 de abril de 2025", "4 अप्रैल 2025", "4 এপ্রিল 2025", "4 أبريل 2025", "2025-04-04")
d4 = date_("22 May 2025", "22 de mayo de 2025", "22 मई 2025", "22 মে 2025", "22 مايو 2025", "2025-05-22")
d5 = date_("18 June 2025", "18 de junio de 2025", "18 जून 2025", "18 জুন 2025", "18 يونيو 2025", "2025-06-18")

FACTS = [
 # memo
 F("memo", Q("On what date will the office move?", "¿En qué fecha se trasladará la oficina?", "कार्यालय किस तारीख को स्थानांतरित होगा?",
             "অফিস কোন তারিখে স্থানান্তরিত হবে?", "في أي تاريخ سينتقل المكتب؟"), d1[0], d1[1]),
 F("memo", Q("What is the address of the new office?", "¿Cuál es la dirección de la nueva oficina?", "नए कार्यालय का पता क्या है?",
             "নতুন অফিসের ঠিকানা কী?", "ما عنوان المكتب الجديد؟"), "220 Riverside Avenue"),
 F("memo", Q("Who wrote the memo?", "¿Quién escribió el memorándum?", "यह ज्ञापन किसने लिखा?", "স্মারকলিপিটি কে লিখেছেন?", "من كتب المذكرة؟"),
   Q("Helena Brandt", "Helena Brandt", "हेलेना ब्रांट", "হেলেনা ব্রান্ট", "هيلينا براندت"), ["Helena Brandt"]),
 F("memo", Q("How many boxes will each employee get?", "¿Cuántas cajas recibirá cada empleado?", "प्रत्येक कर्मचारी को कितने डिब्बे मिलेंगे?",
             "প্রত্যেক কর্মী কয়টি বাক্স পাবেন?", "كم صندوقًا سيحصل عليه كل موظف؟"), "4",
   {"en": ["four"], "es": ["cuatro"], "hi": ["चार", "४"], "bn": ["৪", "চারটি"], "ar": ["أربعة", "٤"]}),
 F("memo", Q("By when must staff finish packing their desks?", "¿Para cuándo deben terminar de empacar sus escritorios?",
             "कर्मचारियों को अपनी डेस्क की पैकिंग कब तक पूरी करनी है?", "কর্মীদের কবের মধ্যে ডেস্ক গোছানো শেষ করতে হবে?",
             "متى يجب أن ينتهي الموظفون من تعبئة مكاتبهم؟"), d2[0], d2[1]),
 F("memo", Q("On which day will the office be closed?", "¿Qué día estará cerrada la oficina?", "कार्यालय किस दिन बंद रहेगा?",
             "অফিস কোন দিন বন্ধ থাকবে?", "في أي يوم سيكون المكتب مغلقًا؟"), d3[0], d3[1]),
 F("memo", Q("How many parking spaces does the new building have for staff?", "¿Cuántas plazas de estacionamiento tiene el nuevo edificio para el personal?",
             "नई इमारत में कर्मचारियों के लिए कितने पार्किंग स्थान हैं?", "নতুন ভবনে কর্মীদের জন্য কতগুলি পার্কিংয়ের জায়গা আছে?",
             "كم عدد مواقف السيارات المخصصة للموظفين في المبنى الجديد؟"), "35", {"bn": ["৩৫"], "ar": ["٣٥"], "hi": ["३५"]}),
 F("memo", Q("Whom should staff contact with questions?", "¿Con quién deben comunicarse si tienen preguntas?", "प्रश्न होने पर किससे संपर्क करना चाहिए?",
             "প্রশ্ন থাকলে কার সঙ্গে যোগাযোগ করতে হবে?", "بمن يجب التواصل عند وجود استفسار؟"),
   Q("Omar Siddiqui", "Omar Siddiqui", "उमर सिद्दीकी", "ওমর সিদ্দিকী", "عمر صديقي"), ["Omar Siddiqui"]),
 F("memo", Q("What is the contact person's extension number?", "¿Cuál es el número de extensión de la persona de contacto?",
             "संपर्क व्यक्ति का एक्सटेंशन नंबर क्या है?", "যোগাযোগকারী ব্যক্তির এক্সটেনশন নম্বর কত?", "ما الرقم الداخلي للشخص المسؤول عن الاستفسارات؟"), "4127"),
 F("memo", Q("Which company will carry the furniture?", "¿Qué empresa transportará los muebles?", "फ़र्नीचर कौन सी कंपनी ले जाएगी?",
             "কোন সংস্থা আসবাবপত্র নিয়ে যাবে?", "ما الشركة التي ستنقل الأثاث؟"), "Swiftline Movers"),
 # notice
 F("notice", Q("Which authority issued the notice?", "¿Qué organismo emitió el aviso?", "यह सूचना किस प्राधिकरण ने जारी की?",
               "কোন কর্তৃপক্ষ বিজ্ঞপ্তিটি জারি করেছে?", "ما الجهة التي أصدرت الإعلان؟"),
   Q("Lakeside Municipal Water Authority", "Autoridad Municipal del Agua de Lakeside", "लेकसाइड नगर जल प्राधिकरण", "লেকসাইড পৌর জল কর্তৃপক্ষ",
     "هيئة مياه بلدية ليكسايد"), ["Lakeside Municipal Water Authority"]),
 F("notice", Q("On what date will the water supply be cut off?", "¿En qué fecha se cortará el suministro de agua?", "जल आपूर्ति किस तारीख को बंद रहेगी?",
               "কোন তারিখে জল সরবরাহ বন্ধ থাকবে?", "في أي تاريخ سينقطع إمداد المياه؟"), d4[0], d4[1]),
 F("notice", Q("At what time does the interruption start?", "¿A qué hora comienza la interrupción?", "रुकावट किस समय शुरू होगी?",
               "সরবরাহ বন্ধ কখন শুরু হবে?", "في أي ساعة يبدأ الانقطاع؟"), "09:00", ["9:00", "9 am"]),
 F("notice", Q("At what time will the water come back?", "¿A qué hora vuelve el agua?", "पानी किस समय वापस आएगा?", "কখন আবার জল আসবে?",
               "في أي ساعة تعود المياه؟"), "17:00", ["5 pm", "5:00 pm"]),
 F("notice", Q("Which districts are affected?", "¿Qué distritos se ven afectados?", "कौन से ज़िले प्रभावित होंगे?", "কোন কোন জেলা ক্ষতিগ্রস্ত হবে?",
               "ما الأحياء المتأثرة؟"), Q("Districts 4 and 7", "Distritos 4 y 7", "ज़िला 4 और 7", "জেলা 4 ও 7", "الحيين 4 و7"), ["4 and 7"]),
 F("notice", Q("Under which road is the pipe being replaced?", "¿Bajo qué calle se sustituye la tubería?", "किस सड़क के नीचे पाइप बदला जा रहा है?",
               "কোন রাস্তার নিচে পাইপ বদলানো হচ্ছে?", "تحت أي طريق يُستبدل الأنبوب؟"),
   Q("Cedar Road", "Cedar Road", "सीडर रोड", "সিডার রোড", "طريق سيدار"), ["Cedar Road"]),
 F("notice", Q("How many water trucks will be stationed in the districts?", "¿Cuántos camiones cisterna habrá en los distritos?",
               "ज़िलों में कितने पानी के टैंकर तैनात रहेंगे?", "জেলাগুলিতে কয়টি জলের ট্যাঙ্কার রাখা থাকবে?", "كم صهريج مياه سيتمركز في الأحياء؟"), "6",
   {"en": ["six"], "es": ["seis"], "hi": ["छह", "६"], "bn": ["৬", "ছয়টি"], "ar": ["ستة", "٦"]}),
 F("notice", Q("What number should residents call for help?", "¿A qué número deben llamar los vecinos para pedir ayuda?",
               "सहायता के लिए निवासी किस नंबर पर कॉल करें?", "সাহায্যের জন্য বাসিন্দারা কোন নম্বরে ফোন করবেন?", "ما الرقم الذي يتصل به السكان للمساعدة؟"),
   "1800-555-0199"),
 F("notice", Q("For how long must tap water be boiled after the supply returns?",
               "¿Durante cuánto tiempo hay que hervir el agua del grifo tras restablecerse el suministro?",
               "आपूर्ति बहाल होने के बाद कितने समय तक नल का पानी उबालना है?", "সরবরাহ চালু হওয়ার পর কতক্ষণ কলের জল ফুটিয়ে খেতে হবে?",
               "كم من الوقت يجب غلي مياه الصنبور بعد عودة الإمداد؟"),
   Q("24 hours", "24 horas", "24 घंटे", "24 ঘণ্টা", "24 ساعة"), ["24"]),
 F("notice", Q("What is the notice number?", "¿Cuál es el número del aviso?", "सूचना की संख्या क्या है?", "বিজ্ঞপ্তির নম্বর কী?", "ما رقم الإعلان؟"),
   "WN-2025-118"),
 # product sheet
 F("product", Q("How much does the purifier cost?", "¿Cuánto cuesta el purificador?", "प्यूरीफ़ायर की कीमत कितनी है?", "পরিশোধকটির দাম কত?",
                "كم سعر جهاز التنقية؟"), "$189", ["189 USD", "189 dollars"]),
 F("product", Q("How much clean water can the tank hold?", "¿Cuánta agua limpia cabe en el depósito?", "टंकी में कितना साफ़ पानी रखा जा सकता है?",
                "ট্যাঙ্কে কতটা পরিষ্কার জল রাখা যায়?", "ما سعة خزان المياه النظيفة؟"),
   Q("8-liter", "8 litros", "8 लीटर", "8 লিটার", "8 لترات"), ["8 liters", "8 litres", "8 L"]),
 F("product", Q("How many filtration stages does it have?", "¿Cuántas etapas de filtración tiene?", "इसमें फ़िल्ट्रेशन के कितने चरण हैं?",
                "এতে পরিস্রাবণের কয়টি ধাপ আছে?", "كم عدد مراحل الترشيح فيه؟"), "7",
   {"en": ["seven"], "es": ["siete"], "hi": ["सात", "७"], "bn": ["৭", "সাত"], "ar": ["سبع", "٧"]}),
 F("product", Q("How much water does it purify in an hour?", "¿Cuánta agua purifica en una hora?", "यह एक घंटे में कितना पानी शुद्ध करता है?",
                "এটি এক ঘণ্টায় কত জল পরিশোধন করে?", "كم لترًا ينقّي الجهاز في الساعة؟"),
   Q("15 liters per hour", "15 litros por hora", "प्रति घंटे 15 लीटर", "প্রতি ঘণ্টায় 15 লিটার", "15 لترًا في الساعة"), ["15 L/h", "15"]),
 F("product", Q("How much electricity does it use?", "¿Cuánta electricidad consume?", "यह कितनी बिजली खपत करता है?", "এটি কত বিদ্যুৎ খরচ করে?",
                "ما استهلاك الجهاز من الطاقة؟"), Q("36 watts", "36 vatios", "36 वाट", "36 ওয়াট", "36 واط"), ["36 W"]),
 F("product", Q("How long is the guarantee?", "¿Cuánto dura la garantía?", "वारंटी कितने समय की है?", "ওয়ারেন্টি কত দিনের?", "ما مدة الضمان؟"),
   Q("2 years", "2 años", "2 वर्ष", "2 বছর", "سنتان"), {"en": ["two years"], "es": ["dos años"], "hi": ["दो वर्ष", "2 साल"], "bn": ["দুই বছর"], "ar": ["2", "عامان"]}),
 F("product", Q("How heavy is the purifier?", "¿Cuánto pesa el purificador?", "प्यूरीफ़ायर का वज़न कितना है?", "পরিশোধকটির ওজন কত?", "كم يزن جهاز التنقية؟"),
   Q("6.5 kg", "6,5 kg", "6.5 किलोग्राम", "6.5 কেজি", "6.5 كغ"), ["6.5 kg", "6,5 kg"]),
 F("product", Q("How often should the filter cartridge be replaced?", "¿Cada cuánto se debe cambiar el cartucho del filtro?",
                "फ़िल्टर कार्ट्रिज कितने समय बाद बदलना चाहिए?", "ফিল্টার কার্তুজ কত দিন পর পর বদলাতে হবে?", "كم مرة يجب استبدال خرطوشة الفلتر؟"),
   Q("every 12 months", "cada 12 meses", "हर 12 महीने", "প্রতি 12 মাসে", "كل 12 شهرًا"), ["12 months or 6,000 liters", "6,000 liters", "6.000 litros"]),
 F("product", Q("Who makes the purifier?", "¿Quién fabrica el purificador?", "प्यूरीफ़ायर किसने बनाया है?", "পরিশোধকটি কে তৈরি করে?", "من الشركة المصنعة للجهاز؟"),
   "Blue Lotus Appliances"),
 F("product", Q("What is the model name of the product?", "¿Cuál es el nombre del modelo?", "उत्पाद के मॉडल का नाम क्या है?", "পণ্যের মডেলের নাম কী?",
                "ما اسم طراز المنتج؟"), "AquaPure X200"),
 # schedule
 F("schedule", Q("When does the workshop take place?", "¿Cuándo se celebra el taller?", "कार्यशाला कब होगी?", "কর্মশালা কবে অনুষ্ঠিত হবে?",
                 "متى تُعقد ورشة العمل؟"), d5[0], d5[1]),
 F("schedule", Q("Where is the workshop held?", "¿Dónde se celebra el taller?", "कार्यशाला कहाँ आयोजित होगी?", "কর্মশালা কোথায় হবে?", "أين تُعقد ورشة العمل؟"),
   "Hotel Meridian"),
 F("schedule", Q("What time does registration open?", "¿A qué hora es la inscripción?", "पंजीकरण किस समय है?", "নিবন্ধন কখন?", "في أي ساعة يبدأ التسجيل؟"),
   "08:30", ["8:30"]),
 F("schedule", Q("Who gives the opening address?", "¿Quién pronuncia el discurso de apertura?", "उद्घाटन भाषण कौन देगा?", "উদ্বোধনী ভাষণ কে দেবেন?",
                 "من يلقي كلمة الافتتاح؟"), Q("Amina Rahman", "Amina Rahman", "अमीना रहमान", "আমিনা রহমান", "أمينة رحمن"), ["Amina Rahman", "Dr. Amina Rahman"]),
 F("schedule", Q("Who is the keynote speaker?", "¿Quién imparte la conferencia principal?", "मुख्य वक्ता कौन है?", "মূল বক্তা কে?", "من المتحدث الرئيسي؟"),
   Q("Daniel Okoye", "Daniel Okoye", "डैनियल ओकोये", "ড্যানিয়েল ওকোয়ে", "دانيال أوكويي"), ["Daniel Okoye", "Prof. Daniel Okoye"]),
 F("schedule", Q("At what time is the tea break?", "¿A qué hora es la pausa para el té?", "चाय अवकाश किस समय है?", "চা বিরতি কখন?", "في أي ساعة استراحة الشاي؟"),
   "11:00"),
 F("schedule", Q("Who moderates the panel on hospital records?", "¿Quién modera la mesa redonda sobre historias clínicas?",
                 "अस्पताल के रिकॉर्ड पर पैनल चर्चा का संचालन कौन करेगा?", "হাসপাতালের নথি বিষয়ে প্যানেল আলোচনা কে সঞ্চালনা করবেন?",
                 "من يدير حلقة النقاش حول السجلات الطبية؟"),
   Q("Lucia Fernandez", "Lucía Fernández", "लूसिया फर्नांडीज़", "লুসিয়া ফার্নান্দেজ", "لوسيا فرنانديز"), ["Lucia Fernandez", "Lucía Fernández"]),
 F("schedule", Q("When is lunch served?", "¿A qué hora es el almuerzo?", "दोपहर का भोजन किस समय है?", "মধ্যাহ্নভোজ কখন?", "متى موعد الغداء؟"),
   "13:00", ["1 pm", "1:00 pm"]),
 F("schedule", Q("In which room is the data privacy session?", "¿En qué sala es la sesión sobre privacidad de datos?", "डेटा गोपनीयता सत्र किस कमरे में है?",
                 "তথ্য গোপনীয়তা অধিবেশন কোন কক্ষে?", "في أي قاعة تُعقد جلسة خصوصية البيانات؟"),
   Q("Room 204", "Sala 204", "कमरा 204", "কক্ষ 204", "القاعة 204"), ["204"]),
 F("schedule", Q("At what time does the workshop close?", "¿A qué hora es la clausura?", "समापन किस समय है?", "সমাপনী কখন?", "في أي ساعة الختام؟"),
   "16:30", ["4:30 pm"]),
]

# Unanswerable near misses (ml-041 .. ml-056), 4 per document in document order; the answer is
# stated in none of the five versions of the document. What each one tempts is in its comment.
UNANSWERABLE = [
 # memo
 ("memo", Q("What is the address of the old office?", "¿Cuál es la dirección de la oficina antigua?", "पुराने कार्यालय का पता क्या है?",
            "পুরোনো অফিসের ঠিকানা কী?", "ما عنوان المكتب القديم؟")),  # only the new address is given
 ("memo", Q("What is the moving company's phone number?", "¿Cuál es el número de teléfono de la empresa de mudanzas?",
            "मूविंग कंपनी का फ़ोन नंबर क्या है?", "মালপত্র পরিবহন সংস্থার ফোন নম্বর কত?", "ما رقم هاتف شركة النقل؟")),  # only an extension, of a person
 ("memo", Q("How many parking spaces does the new building have for visitors?",
            "¿Cuántas plazas de estacionamiento tiene el nuevo edificio para visitantes?",
            "नई इमारत में आगंतुकों के लिए कितने पार्किंग स्थान हैं?", "নতুন ভবনে দর্শনার্থীদের জন্য কতগুলি পার্কিংয়ের জায়গা আছে?",
            "كم عدد مواقف السيارات المخصصة للزوار في المبنى الجديد؟")),  # 35 are for staff
 ("memo", Q("At what time will the movers arrive on moving day?", "¿A qué hora llegarán los de la mudanza el día del traslado?",
            "स्थानांतरण के दिन मूविंग कंपनी के लोग किस समय पहुँचेंगे?", "স্থানান্তরের দিন মালপত্র পরিবহন সংস্থার লোকেরা কখন পৌঁছাবেন?",
            "في أي ساعة سيصل عمال النقل يوم الانتقال؟")),  # 5 pm is the packing deadline, on another day
 # notice
 ("notice", Q("How many households are affected by the interruption?", "¿Cuántos hogares se ven afectados por la interrupción?",
              "रुकावट से कितने घर प्रभावित होंगे?", "সরবরাহ বন্ধের ফলে কতগুলি পরিবার ক্ষতিগ্রস্ত হবে?", "كم عدد المنازل المتأثرة بالانقطاع؟")),  # districts 4 and 7, 6 tankers
 ("notice", Q("What are the helpline's opening hours?", "¿Cuál es el horario de atención de la línea de ayuda?",
              "हेल्पलाइन किस समय से किस समय तक खुली रहती है?", "হেল্পলাইন কোন সময় থেকে কোন সময় পর্যন্ত খোলা থাকে?",
              "ما ساعات عمل خط المساعدة؟")),  # 09:00-17:00 is the interruption
 ("notice", Q("How much water does each tanker hold?", "¿Cuánta agua cabe en cada camión cisterna?", "प्रत्येक टैंकर में कितना पानी आता है?",
              "প্রতিটি ট্যাঙ্কারে কতটা জল ধরে?", "ما سعة كل صهريج من المياه؟")),  # only the number of tankers (and a tank in the product sheet)
 ("notice", Q("On what date was the notice issued?", "¿En qué fecha se publicó el aviso?", "यह सूचना किस तारीख को जारी की गई?",
              "বিজ্ঞপ্তিটি কোন তারিখে জারি করা হয়েছে?", "في أي تاريخ صدر الإعلان؟")),  # only the date of the interruption
 # product sheet
 ("product", Q("How much does a replacement filter cartridge cost?", "¿Cuánto cuesta un cartucho de filtro de repuesto?",
               "नए फ़िल्टर कार्ट्रिज की कीमत कितनी है?", "নতুন ফিল্টার কার্তুজের দাম কত?", "كم سعر خرطوشة الفلتر البديلة؟")),  # $189 is the purifier
 ("product", Q("What are the dimensions of the purifier?", "¿Qué dimensiones tiene el purificador?", "प्यूरीफ़ायर के आयाम क्या हैं?",
               "পরিশোধকটির মাপ (দৈর্ঘ্য, প্রস্থ, উচ্চতা) কত?", "ما أبعاد جهاز التنقية؟")),  # weight and tank size only
 ("product", Q("What supply voltage does the purifier need?", "¿Qué tensión de alimentación necesita el purificador?",
               "प्यूरीफ़ायर को कितने वोल्ट की बिजली चाहिए?", "পরিশোধকটি চালাতে কত ভোল্টের বিদ্যুৎ লাগে?",
               "كم فولتًا يحتاج جهاز التنقية للتشغيل؟")),  # 36 watts is the consumption
 ("product", Q("In which country is the purifier made?", "¿En qué país se fabrica el purificador?", "प्यूरीफ़ायर किस देश में बनता है?",
               "পরিশোধকটি কোন দেশে তৈরি হয়?", "في أي بلد يُصنع جهاز التنقية؟")),  # only the manufacturer's name
 # schedule
 ("schedule", Q("How much is the registration fee?", "¿Cuánto cuesta la inscripción?", "पंजीकरण शुल्क कितना है?", "নিবন্ধন ফি কত?",
                "كم رسوم التسجيل؟")),  # registration is at 08:30
 ("schedule", Q("Who leads the hands-on session on data privacy?", "¿Quién imparte la sesión práctica sobre privacidad de datos?",
                "डेटा गोपनीयता पर व्यावहारिक सत्र कौन संचालित करेगा?", "তথ্য গোপনীয়তা বিষয়ে হাতে-কলমে অধিবেশনটি কে পরিচালনা করবেন?",
                "من يقدّم الجلسة التطبيقية حول خصوصية البيانات؟")),  # only its room, 204
 ("schedule", Q("Which organisation is organising the workshop?", "¿Qué organización organiza el taller?",
                "कार्यशाला का आयोजन कौन सी संस्था कर रही है?", "কোন সংস্থা কর্মশালাটির আয়োজন করছে?", "ما الجهة المنظِّمة لورشة العمل؟")),  # Hotel Meridian is the venue
 ("schedule", Q("Who gives the closing address?", "¿Quién pronuncia el discurso de clausura?", "समापन भाषण कौन देगा?", "সমাপনী ভাষণ কে দেবেন?",
                "من يلقي كلمة الختام؟")),  # the opening address is Amina Rahman's
]


def norm(s):
    return re.sub(r"\s+", " ", s).strip().lower()


def main():
    rows, bad = [], 0
    for n, (doc, q, a, alts) in enumerate(FACTS, 1):
        fact = f"ml-{n:03d}"
        for lang in LANGS:
            path = f"docs/{lang}/{doc}.txt"
            text = norm(open(os.path.join(HERE, path), encoding="utf-8").read())
            if norm(a[lang]) not in text:
                bad += 1
                print(f"{fact}-{lang}: answer {a[lang]!r} not in {path}")
            rows.append({"id": f"{fact}-{lang}", "fact": fact, "lang": lang, "split": "tune" if n % 2 else "report",
                         "document": path, "question": q[lang], "answer": a[lang], "alternatives": alts.get(lang, []),
                         "answerable": True})
    for n, (doc, q) in enumerate(UNANSWERABLE, len(FACTS) + 1):
        fact = f"ml-{n:03d}"
        for lang in LANGS:
            path = f"docs/{lang}/{doc}.txt"
            assert os.path.exists(os.path.join(HERE, path)), path
            rows.append({"id": f"{fact}-{lang}", "fact": fact, "lang": lang, "split": "tune" if n % 2 else "report",
                         "document": path, "question": q[lang], "answer": None, "alternatives": [],
                         "answerable": False})
    with open(os.path.join(HERE, "questions.jsonl"), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(len(rows), "questions,", len(FACTS) + len(UNANSWERABLE), "facts", f"({len(UNANSWERABLE)} unanswerable),",
          "OK" if not bad else f"FAIL ({bad})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
