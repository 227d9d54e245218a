#!/usr/bin/env python3
"""Writes qa.jsonl from the question list below (hand-written, blind to docintel's answering code).

Split rule (fixed before any system was run): the distinct documents, sorted by path,
are assigned alternately tune, report, tune, ... so that all questions about one document
sit in the same half.
"""
import json, os

D = "doc-corpus/"
MEMO = D + "pdf/text/fake-memo.pdf"
SCOTUS = D + "pdf/text/scotus-transcript-p1.pdf"
FR = D + "pdf/multicolumn/federal-register-2020-17221.pdf"
NICS = D + "pdf/tables/nics-background-checks-2015-11.pdf"
SENATE = D + "pdf/tables/senate-expenditures.pdf"
TENK = D + "html/example-10k-1p.html"
EML = D + "email/fake-email.eml"
EMLA = D + "email/fake-email-attachment.eml"
MIME = D + "email/mime-different-plain-html.eml"
HTML = D + "html/fake-html.html"
CSV = D + "office/csv/stanley-cups.csv"
HANDBOOK = D + "office/docx/handbook-1p.docx"
PPT = D + "office/pptx/fake-power-point.pptx"
PPTT = D + "office/pptx/fake-power-point-table.pptx"
DPR = D + "pdf/multicolumn/dpr-paper-2p.pdf"
WAP = D + "text/book-war-and-peace-1p.txt"
FTXT = D + "text/fake-text.txt"
MDT = D + "text/simple-table.md"
NOR = D + "text/norwich-city.txt"

# (document, question, answer or None if unanswerable, alternatives, page, answer_type)
Q = [
    # --- fake memo ---
    (MEMO, "How many laptops were shipped?", "200", ["200 laptops"], 1, "number"),
    (MEMO, "On what date did the water, blankets and laptops arrive?", "January 23, 2023", ["2023-01-23", "23 January 2023"], 1, "date"),
    (MEMO, "What date is written at the top of the memo?", "May 5, 2023", ["2023-05-05"], 1, "date"),
    (MEMO, "How many bottles of water were provided?", "20,000", ["20000", "20,000 bottles"], 1, "number"),
    (MEMO, "How many blankets were handed over?", "10,000", ["10000"], 1, "number"),
    (MEMO, "How many lorries were needed for the delivery?", "3", ["three", "3 trucks"], 1, "number"),
    (MEMO, "For how long were the vehicles in use?", "15 hours", ["15"], 1, "number"),
    (MEMO, "Who signed the memo?", "Mallori", [], 1, "person"),
    (MEMO, "How many tents were delivered?", None, [], None, "number"),
    (MEMO, "What did the 200 laptops cost?", None, [], None, "money"),
    (MEMO, "How many volunteers unloaded the trucks?", None, [], None, "number"),
    (MEMO, "To which city were the supplies delivered?", None, [], None, "place"),
    # --- SCOTUS transcript front page ---
    (SCOTUS, "What is the docket number of the case?", "07-1315", ["No. 07-1315"], 1, "other"),
    (SCOTUS, "On what date was the case argued?", "January 13, 2009", ["Tuesday, January 13, 2009", "2009-01-13"], 1, "date"),
    (SCOTUS, "At what time did the oral argument begin?", "1:01 p.m.", ["1:01 pm", "13:01"], 1, "other"),
    (SCOTUS, "Who argued for the petitioner?", "STEVEN E. MERCER", ["Steven E. Mercer", "Steven Mercer"], 1, "person"),
    (SCOTUS, "Which lawyer appeared on behalf of the respondent?", "CHARLES M. SEVILLA", ["Charles M. Sevilla", "Charles Sevilla"], 1, "person"),
    (SCOTUS, "Who is the respondent in the case?", "ALEXANDRE MIRZAYANCE", ["Alexandre Mirzayance", "Mirzayance"], 1, "person"),
    (SCOTUS, "Who is the petitioner, the warden?", "MICHAEL A. KNOWLES", ["Michael A. Knowles", "Knowles"], 1, "person"),
    (SCOTUS, "What office did the petitioner's counsel hold?", "Deputy Attorney General", [], 1, "other"),
    (SCOTUS, "Which city is the respondent's lawyer from?", "San Diego", ["San Diego, Cal."], 1, "place"),
    (SCOTUS, "In which city did the argument take place?", "Washington, D.C.", ["Washington"], 1, "place"),
    (SCOTUS, "Which company produced the transcript?", "Alderson Reporting Company", ["Alderson Reporting"], 1, "organization"),
    (SCOTUS, "On what date did the Court announce its decision in this case?", None, [], None, "date"),
    (SCOTUS, "Who argued on behalf of the United States as amicus curiae?", None, [], None, "person"),
    (SCOTUS, "At what time was the case submitted?", None, [], None, "other"),
    (SCOTUS, "Which Justice delivered the opinion of the Court?", None, [], None, "person"),
    (SCOTUS, "What was the docket number of the case in the Court of Appeals?", None, [], None, "other"),
    # --- Federal Register proposed AD ---
    (FR, "By what date must the FAA receive comments on the proposed airworthiness directive?", "September 21, 2020", ["2020-09-21"], 1, "date"),
    (FR, "What is the docket number of this proposed rule?", "FAA\u20132020\u20130686", ["FAA-2020-0686"], 1, "other"),
    (FR, "Which earlier airworthiness directive would this proposal replace?", "2018\u201323\u201351", ["AD 2018-23-51", "2018-23-51"], 1, "other"),
    (FR, "What fax number can commenters use?", "202\u2013493\u20132251", ["202-493-2251"], 1, "other"),
    (FR, "Who should be contacted for further information about the proposed AD?", "Ian Won", [], 1, "person"),
    (FR, "In which volume and issue of the Federal Register does this appear?", "Vol. 85, No. 152", ["Volume 85, Number 152"], 1, "other"),
    (FR, "On what day was this issue of the Federal Register published?", "August 6, 2020", ["Thursday, August 6, 2020", "2020-08-06"], 1, "date"),
    (FR, "When did the Lion Air Flight 610 accident happen?", "October 29, 2018", ["2018-10-29"], 1, "date"),
    (FR, "How many people were killed in the Lion Air Flight 610 accident?", "189", ["189 fatalities"], 2, "number"),
    (FR, "How many fatalities resulted from the Ethiopian Airlines Flight 302 crash?", "157", ["157 fatalities"], 2, "number"),
    (FR, "On what date did the Ethiopian Airlines Flight 302 accident take place?", "March 10, 2019", ["2019-03-10"], 2, "date"),
    (FR, "When did the FAA issue the emergency AD as an interim corrective action?", "November 7, 2018", ["2018-11-07"], 2, "date"),
    (FR, "What does MCAS stand for?", "maneuvering characteristics augmentation system", [], 2, "definition"),
    (FR, "How does the document define the angle of attack?", "the angle at which the airplane wing meets the oncoming air", ["angle at which the airplane wing meets the oncoming air"], 2, "definition"),
    (FR, "Which Indonesian body investigated the Lion Air accident?", "Komite Nasional Keselamatan Transportasi", ["KNKT"], 2, "organization"),
    (FR, "How many airplanes on the US register would the proposed AD affect?", "73", ["73 airplanes"], 5, "number"),
    (FR, "What hourly labour rate does the FAA use in its cost estimate?", "$85 per hour", ["$85", "85 dollars per hour"], 5, "money"),
    (FR, "What is the estimated average total cost per operator to revise the minimum equipment list?", "$7,650", ["7,650", "$7650"], 6, "money"),
    (FR, "On average, how many work-hours does revising an operator's MEL take?", "90", ["90 work-hours"], 6, "number"),
    (FR, "What is the maximum estimated cost on U.S. operators of the stabilizer wiring change?", "$766,865", ["766,865"], 6, "money"),
    (FR, "Which software version must be installed on FCC A and FCC B?", "P12.1.2", ["version P12.1.2"], 6, "other"),
    (FR, "Which Boeing models does the proposed AD apply to?", "737\u20138 and 737\u20139", ["737-8 and 737-9", "737 MAX"], 6, "other"),
    (FR, "Under which Executive Order did the FAA find no federalism implications?", "13132", ["Executive Order 13132"], 6, "other"),
    (FR, "Who signed the proposed rule?", "Lance T. Gant", ["Lance Gant"], 15, "person"),
    (FR, "On what date was the proposed AD signed?", "August 3, 2020", ["2020-08-03"], 15, "date"),
    (FR, "In which city is Boeing's Contractual & Data Services office located?", "Seal Beach", ["Seal Beach, CA"], 1, "place"),
    (FR, "What is the FR Doc number of this document?", "2020\u201317221", ["2020-17221", "FR Doc. 2020-17221"], 15, "other"),
    (FR, "How many airplanes of non-U.S. registry would the proposed AD affect?", None, [], None, "number"),
    (FR, "What is the estimated cost per airplane of the operational readiness flight?", None, [], None, "money"),
    (FR, "On what date did the final rule for this AD take effect?", None, [], None, "date"),
    (FR, "How many passengers were on board Ethiopian Airlines Flight 302?", None, [], None, "number"),
    (FR, "What is the telephone number of the Ethiopian Accident Investigation Bureau?", None, [], None, "other"),
    (FR, "How much did Boeing pay in penalties for the 737 MAX accidents?", None, [], None, "money"),
    # --- NICS table ---
    (NICS, "How many permit checks were recorded for Alabama?", "18,870", ["18870"], 1, "number"),
    (NICS, "What is the handgun figure for Texas?", "56,941", ["56941"], 1, "number"),
    (NICS, "What number appears in the Long Gun column for Pennsylvania?", "16,297", ["16297"], 1, "number"),
    (NICS, "How many permit background checks did Kentucky run?", "264,140", ["264140"], 1, "number"),
    (NICS, "What is the total of the Permit column?", "804,006", ["804006"], 1, "number"),
    (NICS, "What is the total number of handgun checks across all states?", "671,330", ["671330"], 1, "number"),
    (NICS, "What value does Florida have in the Multiple column?", "1,957", ["1957"], 1, "number"),
    (NICS, "How many admin checks did Michigan have?", "1,025", ["1025"], 1, "number"),
    (NICS, "What period do these background-check statistics cover?", "November - 2015", ["November 2015", "2015-11"], 1, "date"),
    (NICS, "What does the 'Other' category refer to?", "frames, receivers and other firearms that are not either handguns or long guns", ["frames, receivers and other firearms"], 1, "definition"),
    (NICS, "How many long gun checks were there in Illinois?", "17,227", ["17227"], 1, "number"),
    (NICS, "How many permit checks were logged in Hawaii?", "1,248", ["1248"], 1, "number"),
    (NICS, "What is Ohio's handgun count?", "34,878", ["34878"], 1, "number"),
    (NICS, "How many long gun checks were run in Georgia?", "15,227", ["15227"], 1, "number"),
    (NICS, "How many permit checks were recorded for Alabama in December 2015?", None, [], None, "number"),
    (NICS, "How many firearms were sold in Texas that month?", None, [], None, "number"),
    (NICS, "How many background checks were denied in Ohio?", None, [], None, "number"),
    (NICS, "What was Alabama's total number of handgun checks for the whole of 2015?", None, [], None, "number"),
    # --- Senate expenditures ---
    (SENATE, "How much was paid to J Matthew Bain?", "37,499.96", ["$37,499.96"], 1, "money"),
    (SENATE, "What was Alvaro R Smith's position?", "LEGISLATIVE CORRESPONDENT", ["legislative correspondent"], 1, "other"),
    (SENATE, "Which payee is listed as staff assistant?", "ENGLERT, PAYTON A", ["Payton A Englert", "Payton Englert"], 1, "person"),
    (SENATE, "What is the amount of document DHAW20190001?", "920.68", ["$920.68"], 1, "money"),
    (SENATE, "On what date was document DHAW20190031 posted?", "05/28/2019", ["2019-05-28", "May 28, 2019"], 1, "date"),
    (SENATE, "How much did Sen Hawley's train trip to New York cost?", "618.00", ["$618.00", "618"], 1, "money"),
    (SENATE, "From what date did Erin S Bollinger serve as an intern?", "SEP. 18", ["September 18"], 1, "date"),
    (SENATE, "Since when has Clayton D Campbell been district director?", "MAY 23", ["May 23"], 1, "date"),
    (SENATE, "Which staff member flew from Kansas City MO to San Diego CA?", "C NAYLOR", ["C. Naylor", "Naylor"], 1, "person"),
    (SENATE, "What is the service start date of document DHAW20190045?", "06/29/2019", ["2019-06-29", "June 29, 2019"], 1, "date"),
    (SENATE, "Which document number covers D Hartman's airfare?", "DHAW20190029", [], 1, "other"),
    (SENATE, "How much was Sen Hawley's one-way airfare from Springfield to Washington DC?", "70.00", ["$70.00", "70"], 1, "money"),
    (SENATE, "Which card was charged for the senator's train fare?", "CITIBANK - SENATOR IBA CARD", ["Citibank Senator IBA card"], 1, "organization"),
    (SENATE, "How much was paid to the chief of staff?", None, [], None, "money"),
    (SENATE, "What hotel costs were reported for M Berg's trip to Saint Louis?", None, [], None, "money"),
    (SENATE, "What is the amount of document DHAW20190030?", None, [], None, "money"),
    (SENATE, "Who was the office's legislative director?", None, [], None, "person"),
    # --- 10-K cover page ---
    (TENK, "What is the registrant's Commission file number?", "000-30653", [], 1, "other"),
    (TENK, "What is the exact name of the issuer?", "Galaxy Gaming, Inc.", ["Galaxy Gaming"], 1, "organization"),
    (TENK, "In which state is the company incorporated?", "Nevada", ["NV"], 1, "place"),
    (TENK, "What is the company's IRS employer identification number?", "20-8143439", [], 1, "other"),
    (TENK, "What is the street address of the principal executive offices?", "6480 Cameron Street Ste. 305", ["6480 Cameron Street Ste. 305 \u2013 Las Vegas, NV 89118"], 1, "place"),
    (TENK, "What telephone number does the registrant give?", "(702) 939-3254", ["702-939-3254"], 1, "other"),
    (TENK, "Under what ticker does the common stock trade?", "GLXZ", [], 1, "other"),
    (TENK, "On which market is the common stock registered?", "OTCQB marketplace", ["OTCQB"], 1, "organization"),
    (TENK, "What was the aggregate market value of the common equity held by non-affiliates?", "$70,923,698", ["70,923,698"], 1, "money"),
    (TENK, "How many common shares were outstanding?", "23,718,968", ["23718968"], 1, "number"),
    (TENK, "As of what date is the share count given?", "March 28, 2022", ["2022-03-28"], 1, "date"),
    (TENK, "For which fiscal year is this annual report filed?", "DECEMBER 31, 2021", ["December 31, 2021", "2021", "2021-12-31"], 1, "date"),
    (TENK, "What was Galaxy Gaming's total revenue for 2021?", None, [], None, "money"),
    (TENK, "How many employees does Galaxy Gaming have?", None, [], None, "number"),
    (TENK, "Who is Galaxy Gaming's chief executive officer?", None, [], None, "person"),
    (TENK, "How many common shares were outstanding as of December 31, 2020?", None, [], None, "number"),
    # --- e-mails ---
    (EML, "Who sent the test email?", "Matthew Robinson", ["mrobinson@unstructured.io"], 1, "person"),
    (EML, "On what date was the email sent?", "16 Dec 2022", ["Fri, 16 Dec 2022", "2022-12-16", "December 16, 2022"], 1, "date"),
    (EML, "What is the subject line of the message?", "Test Email", [], 1, "other"),
    (EML, "To which address was the message sent?", "NotMatthew@notunstructured.com", [], 1, "other"),
    (EML, "What is the name of the file attached to the test email?", None, [], None, "other"),
    (EMLA, "Who sent the email with the attachment?", "Mallori Harrell", ["mallori@unstructured.io"], 1, "person"),
    (EMLA, "On what date was the message with the attachment sent?", "23 Dec 2022", ["Fri, 23 Dec 2022", "2022-12-23"], 1, "date"),
    (EMLA, "What does the attached text file say?", "Hey this is a fake attachment!", [], 1, "other"),
    (EMLA, "How large is the attachment in kilobytes?", None, [], None, "number"),
    (EMLA, "Who was copied (cc) on the email?", None, [], None, "person"),
    (MIME, "Who sent the first networked email?", "Ray Tomlinson", ["Tomlinson"], 1, "person"),
    (MIME, "In which year was the first email sent?", "1971", [], 1, "date"),
    (MIME, "How many people received the first known spam message?", "393", ["393 recipients"], 1, "number"),
    (MIME, "When did the first known case of email spam happen?", "1978", [], 1, "date"),
    (MIME, "On which network was the first spam message sent?", "ARPANET", [], 1, "organization"),
    (MIME, "In what year did Ray Tomlinson die?", None, [], None, "date"),
    (MIME, "Who sent the first spam email?", None, [], None, "person"),
    # --- HTML ---
    (HTML, "What is in the cell at row 2, column 2 of the table?", "Row 2, Cell 2", [], 1, "other"),
    (HTML, "What is the page's top heading?", "My First Heading", [], 1, "other"),
    (HTML, "What does the cell at row 3, column 1 of the table contain?", None, [], None, "other"),
    # --- CSV ---
    (CSV, "How many Stanley Cups have the Maple Leafs won?", "13", [], 1, "number"),
    (CSV, "What location code is given for the Flyers?", "PHI", ["Philadelphia"], 1, "place"),
    (CSV, "How many Stanley Cups are listed for the Blues?", "1", ["one"], 1, "number"),
    (CSV, "How many Stanley Cups have the Bruins won?", None, [], None, "number"),
    (CSV, "In which year did the Blues win the Stanley Cup?", None, [], None, "date"),
    # --- US Trustee handbook (DOCX) ---
    (HANDBOOK, "Who appoints and supervises standing trustees?", "The United States Trustee", ["United States Trustee"], 1, "organization"),
    (HANDBOOK, "Which law took the bankruptcy judge out of day-to-day case administration?", "Bankruptcy Reform Act of 1978", [], 1, "other"),
    (HANDBOOK, "Where are a standing trustee's primary statutory duties set out?", "11 U.S.C. \u00a7 1302", ["11 U.S.C. 1302", "section 1302"], 1, "other"),
    (HANDBOOK, "To what does the standing trustee owe a fiduciary responsibility?", "the bankruptcy estate", ["bankruptcy estate"], 1, "definition"),
    (HANDBOOK, "Into which department were the court's former administrative functions moved?", "Department of Justice", [], 1, "organization"),
    (HANDBOOK, "Are standing trustees required to follow the Practice Tips?", "not considered mandatory", ["no"], 1, "other"),
    (HANDBOOK, "In what year was the Handbook last revised?", None, [], None, "date"),
    (HANDBOOK, "How many standing trustees does the Program supervise?", None, [], None, "number"),
    # --- PPTX ---
    (PPT, "Which method adds the bullets after the first one?", "_TextFrame.add_paragraph()", ["add_paragraph()"], 1, "other"),
    (PPT, "What is the slide's title?", "Adding a Bullet Slide", [], 1, "other"),
    (PPT, "Who is the presenter of the slides?", None, [], None, "person"),
    (PPTT, "In the table row that begins with Red, what is in Column 2?", "Green", [], 1, "other"),
    (PPTT, "What is in Column 3 of the last row of the table?", "Aqua", [], 1, "other"),
    (PPTT, "What is the title of the slide with the table?", "A Slide with a Table", [], 1, "other"),
    (PPTT, "What is in Column 4 of the first row of the table?", None, [], None, "other"),
    # --- DPR paper, 2 pages ---
    (DPR, "What top-5 accuracy does DPR reach in the comparison with BM25?", "65.2%", ["65.2"], 2, "number"),
    (DPR, "What top-5 accuracy does BM25 reach in that comparison?", "42.9%", ["42.9"], 2, "number"),
    (DPR, "How many passages were indexed in the experiments?", "21 million", ["21 million passages", "21,000,000"], 2, "number"),
    (DPR, "Which company are most of the authors affiliated with?", "Facebook AI", ["Facebook"], 1, "organization"),
    (DPR, "Who is the first author of the paper?", "Vladimir Karpukhin", ["Karpukhin"], 1, "person"),
    (DPR, "What end-to-end QA accuracy did ORQA reach in the open Natural Questions setting?", "33.3%", ["33.3"], 2, "number"),
    (DPR, "What is the paper's arXiv identifier?", "2004.04906", ["arXiv:2004.04906", "arXiv:2004.04906v3"], 1, "other"),
    (DPR, "By how much does the dense retriever beat Lucene-BM25 in top-20 retrieval accuracy?", "9%-19%", ["9% to 19%", "9-19%"], 1, "number"),
    (DPR, "What top-100 accuracy does DPR reach on TriviaQA?", None, [], None, "number"),
    (DPR, "How many GPUs were used to train the retriever?", None, [], None, "number"),
    # --- War and Peace, first page ---
    (WAP, "In what year does the opening scene take place?", "1805", ["July, 1805"], 1, "date"),
    (WAP, "Who is the hostess of the reception?", "Anna Pavlovna Scherer", ["Anna Pavlovna", "Annette Scherer"], 1, "person"),
    (WAP, "Who was the first guest to arrive?", "Prince Vasili Kuragin", ["Vasili Kuragin", "Prince Vasili"], 1, "person"),
    (WAP, "Between which hours were the guests invited?", "between 7 and 10", ["7 and 10", "7 to 10"], 1, "other"),
    (WAP, "What day of the week is it in the scene?", "Wednesday", [], 1, "date"),
    (WAP, "How old is Anna Pavlovna?", None, [], None, "number"),
    (WAP, "In which year was the novel first published?", None, [], None, "date"),
    # --- small text files ---
    (FTXT, "Which town and postcode does the test document mention?", "Doylestown, PA 18901", ["Doylestown"], 1, "place"),
    (FTXT, "What does the author love?", "fuzzy blankets", [], 1, "other"),
    (FTXT, "What telephone number is given in the test document?", None, [], None, "other"),
    (MDT, "What do bananas cost?", "1.89", ["$1.89"], 1, "money"),
    (MDT, "How many juicy apples are in stock?", "739", [], 1, "number"),
    (MDT, "What is the price of oranges?", None, [], None, "money"),
    # --- Norwich City / Iwan Roberts article ---
    (NOR, "When was Iwan Roberts born?", "26 June 1968", ["1968-06-26", "June 26, 1968"], 1, "date"),
    (NOR, "Where was Iwan Roberts born?", "Bangor, Wales", ["Bangor", "Bangor, Gwynedd"], 1, "place"),
    (NOR, "How tall is Roberts?", "6 ft 3 in", ["1.91 m"], 1, "other"),
    (NOR, "How many caps did Roberts win for Wales?", "fifteen caps", ["15", "fifteen"], 1, "number"),
    (NOR, "How many league appearances did Roberts make in his career?", "647", ["647 league appearances"], 1, "number"),
    (NOR, "In what year was Roberts elected to the Norwich City F.C. Hall of Fame?", "2002", [], 1, "date"),
    (NOR, "How many goals did Roberts score for Huddersfield?", "50 goals in 142 games", ["50"], 1, "number"),
    (NOR, "Which Norwich manager bought Roberts from Wolves?", "Mike Walker", ["Walker"], 1, "person"),
    (NOR, "Which school PE teacher influenced Roberts?", "Iolo Owen", [], 1, "person"),
    (NOR, "Who replaced Mike Walker as Norwich manager?", "Bruce Rioch", ["Rioch"], 1, "person"),
    (NOR, "Where was the 2002 Division One play-off final played?", "Millennium Stadium in Cardiff", ["Millennium Stadium", "Cardiff"], 1, "place"),
    (NOR, "What is the title of Roberts' book?", "All I Want for Christmas", [], 1, "other"),
    (NOR, "Who was Roberts' agent?", "David Speedie", ["Speedie"], 1, "person"),
    (NOR, "Which player partnered Roberts up front and scored 19 goals?", "Craig Bellamy", ["Bellamy"], 1, "person"),
    (NOR, "Against which club did Roberts score a hat-trick for Leicester in April 1994?", "Derby County", ["Derby"], 1, "organization"),
    (NOR, "What is the name of Roberts' wife?", None, [], None, "person"),
    (NOR, "What shirt number did Roberts wear at Norwich?", None, [], None, "number"),
    (NOR, "In what year did Roberts obtain the UEFA Pro Licence?", None, [], None, "date"),
    (NOR, "In what year did Roberts become manager of Norwich City?", None, [], None, "date"),
]

# ---- Added 2026-11-27 (second blind helper session): the set's own documents, fiction written
# for this purpose (CC0), generated by make_qa_docs.py or written as text in qa/docs/.
QD = "tests/data/eval/qa/docs/"
Q_STATS = QD + "stats-library-use-fy2024.pdf"
Q_10K = QD + "annual-report-harrowgate-2025.html"
Q_CSV = QD + "results-lakeshore-league-2025.csv"
Q_MEMO = QD + "memo-dunmore-cold-storage.pdf"
Q_EML = QD + "email-millpond-site-visit.eml"
Q_DECK = QD + "deck-northwind-q3.pptx"
Q_PAPER = QD + "paper-lexweight.pdf"
Q_HB = QD + "handbook-remote-work.docx"
Q_TOWN = QD + "town-kestleton.txt"
Q_README = QD + "readme-tidepool.md"
Q_NOTICE = QD + "notice-calder-aquifer.pdf"
Q_TRANS = QD + "transcript-eastbrook-public-works.txt"

Q += [
    # statistics table (PDF)
    (Q_STATS, "How many library outlets does Kansas have in the survey?", "327", [], 1, "number"),
    (Q_STATS, "How many e-book loans did libraries in Utah make, in thousands?", "4,419", ["4419", "4,419,000"], 1, "number"),
    (Q_STATS, "What did Oregon spend on library operations, in millions of dollars?", "301.1", ["$301.1 million", "301.1 million"], 1, "money"),
    (Q_STATS, "What is the combined circulation of all twelve states, in thousands?", "219,941", ["219941"], 1, "number"),
    (Q_STATS, "How many people attended library programs in Vermont?", "147,702", ["147702"], 1, "number"),
    (Q_STATS, "Why might Oregon's numbers still change?", "preliminary", ["preliminary and subject to revision"], 1, "other"),
    (Q_STATS, "What is left out of Nevada's visit counts?", "bookmobiles", ["stops made by bookmobiles"], 1, "other"),
    (Q_STATS, "How many full-time library staff does Idaho employ?", None, [], None, "number"),
    (Q_STATS, "What was Montana's circulation in fiscal year 2023?", None, [], None, "number"),
    (Q_STATS, "How many library outlets does New Mexico have?", None, [], None, "number"),
    # annual report financial page (HTML)
    (Q_10K, "What was Harrowgate's net income for 2024?", "140.5", ["$140.5 million", "140.5 million"], 1, "money"),
    (Q_10K, "How much did the company spend on research and development in 2023?", "117.2", ["$117.2 million", "117.2 million"], 1, "money"),
    (Q_10K, "By what percentage did net revenue grow in fiscal 2025?", "9.4%", ["9.4 percent", "9.4"], 1, "number"),
    (Q_10K, "In which city did Harrowgate start production at a new plant?", "Tulsa, Oklahoma", ["Tulsa"], 1, "place"),
    (Q_10K, "What were diluted earnings per share for 2025?", "3.12", ["$3.12"], 1, "money"),
    (Q_10K, "Who is Harrowgate's chief financial officer?", "Marisol Okafor", [], 1, "person"),
    (Q_10K, "On what date did fiscal 2025 end?", "September 30, 2025", ["2025-09-30"], 1, "date"),
    (Q_10K, "What was Harrowgate's net income in 2022?", None, [], None, "money"),
    (Q_10K, "How much did Harrowgate spend buying back its own shares in fiscal 2025?", None, [], None, "money"),
    (Q_10K, "How much operating income did the Aquila sensor family contribute in 2025?", None, [], None, "money"),
    # sports results (CSV)
    (Q_CSV, "How many spectators attended match M12?", "904", [], 1, "number"),
    (Q_CSV, "Who refereed Quarry Lane AFC's home game against Pinecrest FC?", "Colm Brennan", [], 1, "person"),
    (Q_CSV, "At which ground did Harbor United play Stonebridge Athletic?", "Harborside Field", [], 1, "place"),
    (Q_CSV, "How many goals did Eastgate Wanderers score at home against Millbrook Town?", "4", ["four"], 1, "number"),
    (Q_CSV, "On what date did Fenwick Celtic host Eastgate Wanderers?", "2025-04-12", ["April 12, 2025", "12 April 2025"], 1, "date"),
    (Q_CSV, "Which team was the visitor at Alder Park on 3 May 2025?", "Eastgate Wanderers", [], 1, "organization"),
    (Q_CSV, "What did a ticket cost for match M07?", None, [], None, "money"),
    (Q_CSV, "Who scored Fenwick Celtic's goals in their 5-2 win over Quarry Lane AFC?", None, [], None, "person"),
    (Q_CSV, "What was the attendance at match M23?", None, [], None, "number"),
    # internal memo (PDF)
    (Q_MEMO, "Who sent the memo about the freezer wing?", "Priya Castellano", [], 1, "person"),
    (Q_MEMO, "When is construction of the freezer wing due to start?", "April 6, 2026", ["2026-04-06"], 1, "date"),
    (Q_MEMO, "How much money did the board approve for the project?", "$4.7 million", ["4.7 million", "$4,700,000"], 1, "money"),
    (Q_MEMO, "Which loading docks will be out of use during the work?", "9 through 14", ["docks 9 through 14", "9-14"], 1, "other"),
    (Q_MEMO, "Which company is the general contractor?", "Brightline Builders LLC", ["Brightline Builders"], 1, "organization"),
    (Q_MEMO, "What extension should I call with questions about the work zone?", "4417", ["extension 4417"], 1, "other"),
    (Q_MEMO, "Where do supervisors gather for the walkthrough?", "Training Room B", [], 1, "place"),
    (Q_MEMO, "How many new employees will be hired to staff the freezer wing?", None, [], None, "number"),
    (Q_MEMO, "What is Tomasz Reyes's e-mail address?", None, [], None, "other"),
    (Q_MEMO, "How much of the approved budget is set aside for refrigeration equipment?", None, [], None, "money"),
    # e-mail (.eml)
    (Q_EML, "Who sent this e-mail?", "Daniela Fuentes", [], 1, "person"),
    (Q_EML, "Who was copied on the message?", "Lena Osei", [], 1, "person"),
    (Q_EML, "What time does the site visit start?", "10:30 a.m.", ["10:30", "10:30 am"], 1, "other"),
    (Q_EML, "Where will they meet for the site visit?", "Millpond Nature Center parking lot", ["Millpond Nature Center"], 1, "place"),
    (Q_EML, "What is the updated price for replacing the decking?", "$86,250", ["86,250", "86250"], 1, "money"),
    (Q_EML, "How much was Harborlight's original quote?", "$91,400", ["91,400", "91400"], 1, "money"),
    (Q_EML, "When does the council's finance committee meet?", "November 4", ["2025-11-04", "4 November"], 1, "date"),
    (Q_EML, "What is Daniela Fuentes's phone number?", None, [], None, "other"),
    (Q_EML, "How many metres of handrail will be replaced?", None, [], None, "number"),
    (Q_EML, "On what date will the permits be issued?", None, [], None, "date"),
    # slide deck (.pptx; page = slide number)
    (Q_DECK, "How many e-bikes were shipped in the second quarter?", "8,190", ["8190"], 3, "number"),
    (Q_DECK, "Who presented the operations review?", "Hannah Brandt", [], 1, "person"),
    (Q_DECK, "When did the Reno assembly line start running?", "August 18", ["2025-08-18"], 2, "date"),
    (Q_DECK, "Which company supplies Northwind's frames now?", "Kestrel Alloy Works", [], 4, "organization"),
    (Q_DECK, "What was the on-time delivery rate in Q3?", "94.6%", ["94.6 percent", "94.6"], 2, "number"),
    (Q_DECK, "How many units does Northwind aim to ship in Q4?", "51,000", ["51000"], 5, "number"),
    (Q_DECK, "How much did tariffs add to component costs in Q3?", "$1.4 million", ["1.4 million", "$1,400,000"], 4, "money"),
    (Q_DECK, "How many gravel bikes were shipped in Q4 2024?", None, [], None, "number"),
    (Q_DECK, "What was Northwind's revenue in Q3 2025?", None, [], None, "money"),
    (Q_DECK, "What frame lead time is Northwind targeting for Q4?", None, [], None, "number"),
    # two-column paper (PDF, 2 pages)
    (Q_PAPER, "How many questions does the StatuteQA dataset contain?", "12,480", ["12480"], 1, "number"),
    (Q_PAPER, "Which university are the authors affiliated with?", "University of Westmoor", [], 1, "organization"),
    (Q_PAPER, "What MRR@10 did LexWeight reach on the test split?", "0.409", [".409"], 2, "number"),
    (Q_PAPER, "What was BM25's recall at 100 in the results table?", "0.742", [".742"], 2, "number"),
    (Q_PAPER, "What is the median query latency of DPR-base in milliseconds?", "48", ["48 ms"], 2, "number"),
    (Q_PAPER, "Which grant funded the work?", "WX-2291", [], 2, "other"),
    (Q_PAPER, "What learning rate was used to train LexWeight?", "2e-5", ["0.00002", "2 x 10^-5"], 1, "number"),
    (Q_PAPER, "What MRR@10 does LexWeight achieve when retrieving case law?", None, [], None, "number"),
    (Q_PAPER, "How many hours did it take to train LexWeight?", None, [], None, "number"),
    (Q_PAPER, "What Recall@1000 did SPLADE-lite obtain?", None, [], None, "number"),
    # handbook page (.docx)
    (Q_HB, "What are core hours under the remote-work policy?", "10:00 a.m. to 3:00 p.m. local time", ["10:00 a.m. to 3:00 p.m.", "10 am to 3 pm"], 1, "definition"),
    (Q_HB, "How long must someone have worked at Ardent before asking for a remote arrangement?", "90 days", ["90"], 1, "number"),
    (Q_HB, "How much is the one-off home-office equipment allowance?", "$600", ["600"], 1, "money"),
    (Q_HB, "Which form do I fill in to request a hybrid arrangement?", "HR-214", ["form HR-214"], 1, "other"),
    (Q_HB, "How far ahead of the start date must the request reach my manager?", "14 days", ["14"], 1, "number"),
    (Q_HB, "When did the remote and hybrid work section take effect?", "January 1, 2026", ["2026-01-01"], 1, "date"),
    (Q_HB, "What makes an employee a hybrid employee?", "works on site at least two days per week", ["at least two days per week"], 1, "definition"),
    (Q_HB, "How much is the monthly mobile phone allowance for remote employees?", None, [], None, "money"),
    (Q_HB, "What is the daily meal allowance on a reimbursed trip to the worksite?", None, [], None, "money"),
    (Q_HB, "What is the name of the Chief People Officer?", None, [], None, "person"),
    # Wikipedia-style article (.txt)
    (Q_TOWN, "How many people lived in Kestleton at the 2021 census?", "23,418", ["23418"], 1, "number"),
    (Q_TOWN, "Which river does Kestleton stand on?", "River Ouvel", ["Ouvel"], 1, "place"),
    (Q_TOWN, "In what year did Kestleton's railway station open?", "1847", [], 1, "date"),
    (Q_TOWN, "Where does Kestleton Athletic play its home games?", "Millfield Road", [], 1, "place"),
    (Q_TOWN, "How many spectators can the Fullers' ground hold?", "4,200", ["4200"], 1, "number"),
    (Q_TOWN, "Which French town is Kestleton twinned with?", "Saint-Aubin-sur-Lieure", [], 1, "place"),
    (Q_TOWN, "When did the town's last worsted mill shut down?", "1968", [], 1, "date"),
    (Q_TOWN, "What was Kestleton's population in 1951?", None, [], None, "number"),
    (Q_TOWN, "Who is the current mayor of Kestleton?", None, [], None, "person"),
    (Q_TOWN, "What is the record attendance at Millfield Road?", None, [], None, "number"),
    # README (.md)
    (Q_README, "What is the oldest Python version tidepool runs on?", "3.10", ["Python 3.10"], 1, "other"),
    (Q_README, "What station code does Port Calloway have?", "PCAL", [], 1, "other"),
    (Q_README, "How often are Bramhope Harbour's predictions updated?", "6 min", ["6 minutes", "every 6 minutes"], 1, "number"),
    (Q_README, "Which tidal datum is used for Wicksand Bar?", "MSL", [], 1, "other"),
    (Q_README, "Which environment variable should hold the API token?", "TIDEPOOL_TOKEN", [], 1, "other"),
    (Q_README, "Where does tidepool keep downloaded predictions by default?", "~/.cache/tidepool", [], 1, "other"),
    (Q_README, "Who maintains tidepool?", "Oona Hartikainen", [], 1, "person"),
    (Q_README, "What is the station ID for Otter Bay?", None, [], None, "other"),
    (Q_README, "What is the default timeout for download requests?", None, [], None, "number"),
    (Q_README, "Under which licence is tidepool released?", None, [], None, "other"),
    # public notice (PDF, 3 pages, running header)
    (Q_NOTICE, "What is the docket number of the proposed rule?", "GWB-2026-0147", [], 1, "other"),
    (Q_NOTICE, "By what date must written comments be received?", "February 16, 2027", ["2027-02-16"], 1, "date"),
    (Q_NOTICE, "Who can I contact for more information about the proposal?", "Margaret Oyelaran", [], 1, "person"),
    (Q_NOTICE, "Where will the public hearing be held?", "Lindale Community Hall", ["Lindale Community Hall, 410 Orchard Street, Lindale"], 1, "place"),
    (Q_NOTICE, "How many irrigation permit holders would the rule affect?", "212", [], 3, "number"),
    (Q_NOTICE, "What is the largest daily civil penalty the Board could impose?", "$250", ["250", "$250 per day"], 3, "money"),
    (Q_NOTICE, "By how much has the aquifer's average water table fallen since 2009?", "11.2 feet", ["11.2"], 2, "number"),
    (Q_NOTICE, "What is Margaret Oyelaran's e-mail address?", None, [], None, "other"),
    (Q_NOTICE, "How much will a single flow meter cost a permit holder?", None, [], None, "money"),
    (Q_NOTICE, "On what date was the last public workshop on the aquifer's water budget held?", None, [], None, "date"),
    # meeting transcript (.txt)
    (Q_TRANS, "How far over budget is the snow and ice line?", "$38,500", ["38,500", "38500"], 1, "money"),
    (Q_TRANS, "Which company made the lowest qualified bid for the plow truck?", "Halvorsen Equipment", ["Halvorsen"], 1, "organization"),
    (Q_TRANS, "How much was the winning plow truck bid?", "$212,000", ["212,000", "212000"], 1, "money"),
    (Q_TRANS, "What was the vote on recommending the Halvorsen bid?", "four to one", ["4-1", "4 to 1"], 1, "other"),
    (Q_TRANS, "Who is Eastbrook's Director of Public Works?", "Dev Raman", [], 1, "person"),
    (Q_TRANS, "When is the committee's next meeting?", "February 9, 2026", ["2026-02-09"], 1, "date"),
    (Q_TRANS, "Which street's potholes did the resident complain about?", "Elm Street", [], 1, "place"),
    (Q_TRANS, "Which councillor voted against the plow truck recommendation?", None, [], None, "person"),
    (Q_TRANS, "How many tons of salt were spread in December?", None, [], None, "number"),
    (Q_TRANS, "When will the new plow truck be delivered?", None, [], None, "date"),
]


# ---- Added 2026-11-27 (fourth blind helper session, branch qa4): batch docs4, ten more fiction
# documents (CC0) in forms the earlier batches lack or have once: a wide numeric CSV, a CSV with
# text cells, a quarterly-filing HTML page with a two-level table header and footnotes, an
# "about/news" HTML page, two more two-column papers, a multipart/alternative e-mail with a
# forwarded message, an e-mail whose answers sit in a quoted reply chain, and two long
# encyclopedia-style articles. Names are prefixed a- ... j- so that, sorted by path, each pair of
# the same form gets one report document (a, c, e, g, i) and one tune document (b, d, f, h, j).
Q4 = "tests/data/eval/qa/docs4/"
Q4_BUDGET = Q4 + "a-budget-corvale-by-department.csv"
Q4_INV = Q4 + "b-inventory-ridgeback-makerspace.csv"
Q4_ABOUT = Q4 + "c-about-saltmarsh-estuary-trust.html"
Q4_10Q = Q4 + "d-quarterly-report-penfold-rail-q2-2026.html"
Q4_MOTH = Q4 + "e-paper-orchard-moth-acoustics.pdf"
Q4_ASR = Q4 + "f-paper-hearing-aid-asr.pdf"
Q4_FWD = Q4 + "g-email-fwd-catering-quote.eml"
Q4_THREAD = Q4 + "h-email-choir-coach-thread.eml"
Q4_CLUB = Q4 + "i-club-ostervale-lynx.txt"
Q4_ISLAND = Q4 + "j-island-skerrow.txt"

Q += [
    # wide numeric table (CSV): department x fiscal year
    (Q4_BUDGET, "How much did Corvale spend on parks in fiscal 2023?", "10860300", ["10,860,300", "$10,860,300", "10.86 million"], 1, "money"),
    (Q4_BUDGET, "What library budget is being proposed for FY2027?", "5578100", ["5,578,100", "$5,578,100"], 1, "money"),
    (Q4_BUDGET, "How many full-time equivalent positions are planned for the fire service in 2027?", "199.6", ["199.6 FTE"], 1, "number"),
    (Q4_BUDGET, "By what percentage would the sewer budget change between 2026 and 2027?", "6.7", ["6.7%", "6.7 percent"], 1, "number"),
    (Q4_BUDGET, "Which fund pays for Housing Services?", "Special Revenue", ["Special Revenue fund"], 1, "other"),
    (Q4_BUDGET, "What were the police department's actual expenditures in 2021?", "30679600", ["30,679,600", "$30,679,600"], 1, "money"),
    (Q4_BUDGET, "What is the city's total adopted budget for fiscal year 2026, all departments together?", "211155700", ["211,155,700", "$211,155,700"], 1, "money"),
    (Q4_BUDGET, "What did Parks and Recreation spend in fiscal 2020?", None, [], None, "money"),
    (Q4_BUDGET, "How much is budgeted for animal control in FY2027?", None, [], None, "money"),
    (Q4_BUDGET, "How many staff did Public Works have in 2024?", None, [], None, "number"),
    # equipment inventory with text cells (CSV)
    (Q4_INV, "Which room is the laser cutter kept in?", "Workshop 2 (ground floor)", ["Workshop 2"], 1, "place"),
    (Q4_INV, "Who makes the resin 3D printer?", "Orrin Labs", [], 1, "organization"),
    (Q4_INV, "When did the makerspace get its plasma cutter?", "2025-02-10", ["February 10, 2025", "10 February 2025"], 1, "date"),
    (Q4_INV, "What did the table saw cost?", "3320.00", ["$3,320", "3,320.00", "3320"], 1, "money"),
    (Q4_INV, "Which materials are banned from the laser cutter?", "PVC or vinyl", ["PVC and vinyl"], 1, "other"),
    (Q4_INV, "How hot can the kiln get?", "1,287 degrees C", ["1287", "1,287", "1,287 °C"], 1, "number"),
    (Q4_INV, "Who gave the embroidery machine to the makerspace?", "Hallam family", ["the Hallam family", "Hallam"], 1, "person"),
    (Q4_INV, "How much did the embroidery machine cost?", None, [], None, "money"),
    (Q4_INV, "What is the serial number of the metal lathe?", None, [], None, "other"),
    (Q4_INV, "Which room is the 3D scanner in?", None, [], None, "place"),
    # organisation about/news page (HTML)
    (Q4_ABOUT, "Who runs the estuary trust?", "Rhiannon Askew", [], 1, "person"),
    (Q4_ABOUT, "In what year was the trust set up?", "1987", [], 1, "date"),
    (Q4_ABOUT, "How big is the Cobbler's Reach reserve?", "214 ha", ["214 hectares", "214"], 1, "number"),
    (Q4_ABOUT, "What number do I call to reach the trust?", "01632 960 418", ["01632960418"], 1, "other"),
    (Q4_ABOUT, "How many avocets were seen in the record roost?", "1,862", ["1862"], 1, "number"),
    (Q4_ABOUT, "How much did the Oxney sea-wall project cost?", "£3.8 million", ["3.8 million", "£3,800,000"], 1, "money"),
    (Q4_ABOUT, "Who looks after the trust's money on the board?", "Samir Haddad", [], 1, "person"),
    (Q4_ABOUT, "What is Rhiannon Askew's e-mail address?", None, [], None, "other"),
    (Q4_ABOUT, "How much does it cost to get into the visitor centre?", None, [], None, "money"),
    (Q4_ABOUT, "How many avocets were counted at Greyhithe Flats?", None, [], None, "number"),
    # quarterly filing (HTML): two-level column header, footnotes, MD&A
    (Q4_10Q, "How much freight revenue did Penfold bring in during the second quarter of 2026?", "612,408", ["612408", "$612.4 million", "612,408 thousand"], 1, "money"),
    (Q4_10Q, "What did the railroad spend on fuel in the first half of 2025?", "180,662", ["180662", "$180.7 million", "180,662 thousand"], 1, "money"),
    (Q4_10Q, "Where did the derailment that caused the 2025 charge happen?", "Ashby Creek, Nebraska", ["Ashby Creek"], 1, "place"),
    (Q4_10Q, "Who heads Penfold Rail as CEO?", "Lorraine Castellanos", [], 1, "person"),
    (Q4_10Q, "How many agriculture and food carloads were moved in Q2 2026?", "71,240", ["71240"], 1, "number"),
    (Q4_10Q, "How many common shares were outstanding in late July 2026?", "61,482,917", ["61482917"], 1, "number"),
    (Q4_10Q, "When is the earnings call for the quarter?", "July 28, 2026", ["2026-07-28", "28 July 2026"], 1, "date"),
    (Q4_10Q, "What were Penfold's total operating revenues for the full year 2025?", None, [], None, "money"),
    (Q4_10Q, "How many automotive carloads did Penfold haul in Q2 2026?", None, [], None, "number"),
    (Q4_10Q, "How many locomotives does Penfold operate?", None, [], None, "number"),
    # two-column paper (PDF, 2 pages): moth acoustics
    (Q4_MOTH, "Who is the first author of the moth-monitoring paper?", "Saoirse Dunleavy", ["Dunleavy"], 1, "person"),
    (Q4_MOTH, "Which university is behind the moth study?", "University of Carnmoor", ["Carnmoor"], 1, "organization"),
    (Q4_MOTH, "How many sound clips did the authors label by hand?", "9,412", ["9412"], 1, "number"),
    (Q4_MOTH, "What precision did the random forest baseline reach?", "0.79", [".79"], 2, "number"),
    (Q4_MOTH, "On which date were the most moths recorded?", "23 May", ["May 23", "2025-05-23"], 2, "date"),
    (Q4_MOTH, "What is the number of the Tallis Institute project that funded the study?", "TIA-0457", [], 2, "other"),
    (Q4_MOTH, "In which hills are the study orchards?", "Carnmoor hills", ["the Carnmoor hills"], 1, "place"),
    (Q4_MOTH, "What recall did the CNN reach at Brockley Top?", None, [], None, "number"),
    (Q4_MOTH, "How many moth species were identified in the light traps?", None, [], None, "number"),
    (Q4_MOTH, "How closely did acoustic counts track light-trap catches at Ravensgill?", None, [], None, "number"),
    # two-column paper (PDF, 2 pages): hearing-aid speech recognition
    (Q4_ASR, "Which lab did the TinyCaption paper come from?", "Audiology Engineering Lab", ["Verrin Polytechnic Institute"], 1, "organization"),
    (Q4_ASR, "How many parameters does the TinyCaption encoder have?", "1.9-million", ["1.9 million", "1.9M"], 1, "number"),
    (Q4_ASR, "How much power does the compact 8-bit recogniser draw?", "19.8", ["19.8 mW"], 2, "number"),
    (Q4_ASR, "What word error rate did the 30M conformer get?", "9.6", ["9.6%"], 2, "number"),
    (Q4_ASR, "How much speech was the model trained on?", "3,400 hours", ["3400 hours", "3,400"], 1, "number"),
    (Q4_ASR, "Which grant paid for the research?", "LF-2024-031", [], 2, "other"),
    (Q4_ASR, "What is the ethics approval number of the user study?", "VPI-EC-2025-118", [], 2, "other"),
    (Q4_ASR, "How many hours does a hearing-aid battery last with TinyCaption running?", None, [], None, "number"),
    (Q4_ASR, "What caption delay did TinyCaption have in the hospital corridor?", None, [], None, "number"),
    (Q4_ASR, "How much power does the 30M conformer draw without the Bluetooth link?", None, [], None, "number"),
    # e-mail, multipart/alternative, with a forwarded message
    (Q4_FWD, "Who originally sent the catering quote?", "Fern Achterberg", [], 1, "person"),
    (Q4_FWD, "On what day did the caterer send the quote?", "6 Nov 2026", ["2026-11-06", "November 6, 2026"], 1, "date"),
    (Q4_FWD, "How much is the dinner per head?", "£48.50", ["48.50", "£48.50 per guest"], 1, "money"),
    (Q4_FWD, "What is the total price in the quote?", "£10,736.00", ["10,736", "£10,736", "10736"], 1, "money"),
    (Q4_FWD, "Where is the winter dinner taking place?", "Harcourt Hall", ["Harcourt Hall, Belmont Square"], 1, "place"),
    (Q4_FWD, "By when must the final guest numbers be given?", "1 December", ["December 1", "2026-12-01"], 1, "date"),
    (Q4_FWD, "Which company is doing the catering?", "Copperpot Catering Ltd", ["Copperpot Catering"], 1, "organization"),
    (Q4_FWD, "What is Fern Achterberg's phone number?", None, [], None, "other"),
    (Q4_FWD, "What is the price per guest for menu A?", None, [], None, "money"),
    (Q4_FWD, "How many guests came to last year's winter dinner?", None, [], None, "number"),
    # e-mail with a quoted reply chain (answers in the quoted messages)
    (Q4_THREAD, "What time does the coach pick the choir up on the first morning?", "5:15 a.m.", ["5:15", "05:15", "5:15 am"], 1, "other"),
    (Q4_THREAD, "How much is the coach hire for the tour?", "£6,840", ["6,840", "6840"], 1, "money"),
    (Q4_THREAD, "Who conducts the choir?", "Anneliese Vorster", [], 1, "person"),
    (Q4_THREAD, "When did the choir first ask for a quote?", "9 Mar 2026", ["2026-03-09", "March 9, 2026"], 1, "date"),
    (Q4_THREAD, "What booking reference did the coach company give?", "TCB-5580", [], 1, "other"),
    (Q4_THREAD, "Where will the coach collect the choir?", "St Aldhelm's Church car park", ["St Aldhelm's Church", "St Aldhelm's Church car park, Wexcombe"], 1, "place"),
    (Q4_THREAD, "How many singers are going on the tour?", "41 singers", ["41"], 1, "number"),
    (Q4_THREAD, "What is the name of the coach driver?", None, [], None, "person"),
    (Q4_THREAD, "At what time does the return ferry leave Calais?", None, [], None, "other"),
    (Q4_THREAD, "How much extra does going via Folkestone and the Eurotunnel cost?", None, [], None, "money"),
    # encyclopedia-style article (.txt): ice hockey club
    (Q4_CLUB, "How many people can the Lynx's current arena seat for hockey?", "8,212", ["8212"], 1, "number"),
    (Q4_CLUB, "Who coached the Lynx to the 1996 title?", "Declan Farrow", ["Farrow"], 1, "person"),
    (Q4_CLUB, "What is the biggest crowd ever at the Ostervale Arena?", "8,406", ["8406"], 1, "number"),
    (Q4_CLUB, "When did the club play its very first match?", "14 December 1952", ["1952-12-14", "December 14, 1952"], 1, "date"),
    (Q4_CLUB, "Who runs the club as chief executive?", "Vivienne Kallestad", [], 1, "person"),
    (Q4_CLUB, "What was the Lynx's average home crowd in the 2016–17 season?", "6,938", ["6938"], 1, "number"),
    (Q4_CLUB, "Which team beat the Lynx in the 2024 final?", "Saltbridge Wolves", ["the Saltbridge Wolves"], 1, "organization"),
    (Q4_CLUB, "How much did Brightwater Leisure Group pay for the club?", "4.2 million crowns", ["4.2 million"], 1, "money"),
    (Q4_CLUB, "What was the Lynx's average home attendance in 2011–12?", None, [], None, "number"),
    (Q4_CLUB, "What shirt number did Teodor Blix wear?", None, [], None, "number"),
    (Q4_CLUB, "How much did it cost to build the Harlund Forum?", None, [], None, "money"),
    # encyclopedia-style article (.txt): island
    (Q4_ISLAND, "How many people lived on Skerrow in 1951?", "1,064", ["1064"], 1, "number"),
    (Q4_ISLAND, "How high is the island's tallest hill?", "412 metres", ["412 m", "412"], 1, "number"),
    (Q4_ISLAND, "When was the Skerrow lighthouse first lit?", "1 October 1849", ["1849-10-01", "October 1, 1849"], 1, "date"),
    (Q4_ISLAND, "How much did the islanders pay to buy Skerrow?", "£3.1 million", ["3.1 million", "£3,100,000"], 1, "money"),
    (Q4_ISLAND, "Who chairs the island's community council?", "Morag Ferrie", [], 1, "person"),
    (Q4_ISLAND, "How long is the ferry crossing to the mainland?", "1 hour 50 minutes", ["1 h 50 min", "110 minutes"], 1, "other"),
    (Q4_ISLAND, "Which company runs the car ferry?", "Merrow Ferries", [], 1, "organization"),
    (Q4_ISLAND, "How many people live in Balnahard?", "97", [], 1, "number"),
    (Q4_ISLAND, "How many people lived on Skerrow in 1981?", None, [], None, "number"),
    (Q4_ISLAND, "What does a flight from Skerrow to Kinlossan cost?", None, [], None, "money"),
    (Q4_ISLAND, "How many pairs of puffins breed on the cliffs?", None, [], None, "number"),
]

# ---- Added 2026-11-27 (fifth blind helper session, branch qa5): batch docs5, ten more fiction
# documents (CC0) in five pairs of forms the earlier batches lack: meeting minutes with motions and
# votes (2-page text PDFs), product datasheets with spec and price tables (Markdown), policies with
# numbered sections, definitions and exceptions (DOCX), ferry and bus timetables (HTML tables), and
# an invoice and a purchase order (fixed-width plain text). Names are prefixed a- ... j- so that,
# sorted by path, they take indexes 41-50 and each pair of the same form gets one report document
# (a, c, e, g, i) and one tune document (b, d, f, h, j).
Q5 = "tests/data/eval/qa/docs5/"
Q5_PARISH = Q5 + "a-minutes-brackenford-parish-council-2026-10.pdf"
Q5_COOP = Q5 + "b-minutes-halloway-housing-coop-agm-2026.pdf"
Q5_PROBE = Q5 + "c-datasheet-verdant-sm40-soil-sensor.md"
Q5_PUMP = Q5 + "d-datasheet-kestrel-pc7-pump-controller.md"
Q5_TRAVEL = Q5 + "e-policy-travel-expenses-orrin-labs.docx"
Q5_LEAVE = Q5 + "f-policy-annual-leave-tamsin-foods.docx"
Q5_FERRY = Q5 + "g-timetable-ferry-corran-sound-winter-2026.html"
Q5_BUS = Q5 + "h-timetable-bus-route-12-ashcombe.html"
Q5_INV = Q5 + "i-invoice-lantern-signs-inv-20417.txt"
Q5_PO = Q5 + "j-purchase-order-fenwick-school-po-3391.txt"

Q += [
    # parish council minutes (2-page PDF, running header)
    (Q5_PARISH, "Who chaired the parish council's October meeting?", "Harriet Quennell", ["Cllr Harriet Quennell", "Quennell"], 1, "person"),
    (Q5_PARISH, "How much did the council have in its reserve account at the end of September?", "£41,250.00", ["41,250.00", "£41,250", "41250"], 1, "money"),
    (Q5_PARISH, "What was the top speed clocked during the police speed check?", "52 mph", ["52"], 1, "number"),
    (Q5_PARISH, "Where on the B4417 did the police run their speed check?", "Sallow Corner", ["the B4417 at Sallow Corner"], 1, "place"),
    (Q5_PARISH, "How much precept will the parish ask for in 2027/28?", "£52,700", ["52,700", "52700"], 2, "money"),
    (Q5_PARISH, "Which firm won the contract to replace the surfacing under the swings?", "Playsafe Surfaces Ltd", ["Playsafe Surfaces"], 2, "organization"),
    (Q5_PARISH, "How did councillors vote on paying for a second defibrillator?", "3 for, 4 against", ["3-4", "three for, four against", "lost"], 2, "other"),
    (Q5_PARISH, "When does the parish council meet next?", "Wednesday 11 November 2026", ["11 November 2026", "2026-11-11", "November 11, 2026"], 2, "date"),
    (Q5_PARISH, "How many crimes were reported in the parish over the same period in 2024?", None, [], None, "number"),
    (Q5_PARISH, "What is the parish clerk's e-mail address?", None, [], None, "other"),
    (Q5_PARISH, "How much would Corve Play Services have charged to take away the old surfacing?", None, [], None, "money"),
    # housing co-op AGM minutes (2-page PDF, running header)
    (Q5_COOP, "Who took the minutes at the co-op's annual meeting?", "Callum Brodie", [], 1, "person"),
    (Q5_COOP, "How many members turned up in person?", "27 in person", ["27"], 1, "number"),
    (Q5_COOP, "Where did the AGM take place?", "the Common Room, 3 Halloway Street, Ferrisham", ["Common Room", "3 Halloway Street, Ferrisham"], 1, "place"),
    (Q5_COOP, "What surplus did the co-op make in the year to March 2026?", "£12,765", ["12,765", "12765"], 1, "money"),
    (Q5_COOP, "What will a two-bedroom flat cost per week after the rent rise?", "£130.41", ["130.41"], 2, "money"),
    (Q5_COOP, "From what date do the higher rents apply?", "1 October 2026", ["2026-10-01", "October 1, 2026"], 2, "date"),
    (Q5_COOP, "Which accountants audit the co-operative's books?", "Tilney & Graves", ["Tilney and Graves"], 2, "organization"),
    (Q5_COOP, "Which candidate failed to get onto the management committee?", "Bryony Achebe", [], 2, "person"),
    (Q5_COOP, "Who proposed the special resolution on keeping pets?", None, [], None, "person"),
    (Q5_COOP, "How much will the new lock for the bicycle store cost?", None, [], None, "money"),
    (Q5_COOP, "On what date will the 2027 AGM be held?", None, [], None, "date"),
    # soil probe datasheet (Markdown, spec and price tables)
    (Q5_PROBE, "Which company makes the SM-40 probe?", "Verdant Field Instruments GmbH", ["Verdant Field Instruments"], 1, "organization"),
    (Q5_PROBE, "In which city is the maker of the probe based?", "Bremen", ["Hafenstraße 22, 28217 Bremen"], 1, "place"),
    (Q5_PROBE, "When was this datasheet issued?", "3 August 2026", ["2026-08-03", "August 3, 2026"], 1, "date"),
    (Q5_PROBE, "How accurate is the moisture reading in ordinary mineral soil?", "±2 % VWC", ["±2 %", "2 %", "±2%", "2% VWC"], 1, "number"),
    (Q5_PROBE, "What supply voltage does the sensor need?", "3.6 to 15 V DC", ["3.6 to 15 V", "3.6-15 V DC"], 1, "other"),
    (Q5_PROBE, "How heavy is the probe with the standard cable?", "410 g", ["410"], 1, "number"),
    (Q5_PROBE, "How much does the version with the 25-metre lead cost?", "358.00", ["EUR 358", "€358", "358"], 1, "money"),
    (Q5_PROBE, "What is the list price of the probe with a 50 m cable?", None, [], None, "money"),
    (Q5_PROBE, "How accurate are the moisture readings in peat soils?", None, [], None, "number"),
    (Q5_PROBE, "How big is the discount when you order 25 probes?", None, [], None, "money"),
    # pump controller datasheet (Markdown, spec, model and fault-code tables)
    (Q5_PUMP, "What is the highest pressure the controller can be set to?", "6.0 bar", ["6 bar"], 1, "number"),
    (Q5_PUMP, "What pressure is the PC-7 set to when it leaves the factory?", "3.0 bar", ["3 bar"], 1, "number"),
    (Q5_PUMP, "How much is the version for pumps of up to 1.1 kW?", "£236.00", ["236.00", "£236", "236"], 1, "money"),
    (Q5_PUMP, "What does fault code E4 on the display mean?", "Too many starts per hour", ["Too many starts per hour (more than 20)", "more than 20 starts per hour"], 1, "other"),
    (Q5_PUMP, "In which town is the controller's manufacturer located?", "Stoke Ferris", ["Brindley Park, Stoke Ferris"], 1, "place"),
    (Q5_PUMP, "How long is the warranty if I register the controller in time?", "three years", ["3 years"], 1, "number"),
    (Q5_PUMP, "When was this edition of the datasheet published?", "April 2026", ["2026-04"], 1, "date"),
    (Q5_PUMP, "How much does the PC-7 model for 2.2 kW pumps cost?", None, [], None, "money"),
    (Q5_PUMP, "What does fault code E5 mean?", None, [], None, "other"),
    (Q5_PUMP, "What is the maximum suction lift the controller can handle?", None, [], None, "number"),
    # travel and expenses policy (DOCX, numbered sections, exceptions)
    (Q5_TRAVEL, "Who is in charge of the travel and expenses policy?", "Ottilie Brandvold", [], 1, "person"),
    (Q5_TRAVEL, "What is the policy's reference number?", "FIN-POL-007", [], 1, "other"),
    (Q5_TRAVEL, "From when does version 3.2 of the expenses policy apply?", "1 July 2026", ["2026-07-01", "July 1, 2026"], 1, "date"),
    (Q5_TRAVEL, "Through which agency do staff have to book their trips?", "Northgate Travel Management", ["Northgate Travel"], 1, "organization"),
    (Q5_TRAVEL, "What is the most I can spend on a hotel room per night in London?", "£165", ["165"], 1, "money"),
    (Q5_TRAVEL, "How much can I claim per mile when I drive my own car on business?", "45p per mile", ["45p", "£0.45"], 1, "money"),
    (Q5_TRAVEL, "How many days do I have to put in an expense claim?", "60 days", ["within 60 days", "60"], 1, "number"),
    (Q5_TRAVEL, "How much cheaper does a direct booking have to be before I can bypass the agent?", "at least 10 per cent lower", ["10 per cent", "10%"], 1, "number"),
    (Q5_TRAVEL, "What is the nightly hotel limit in Paris?", None, [], None, "money"),
    (Q5_TRAVEL, "What is the name of the Chief Operating Officer?", None, [], None, "person"),
    (Q5_TRAVEL, "What mileage rate is paid for business trips on a motorcycle?", None, [], None, "money"),
    # annual leave policy (DOCX, numbered sections, definitions, exceptions)
    (Q5_LEAVE, "How many days of holiday does a full-time employee get a year?", "25 days", ["25"], 1, "number"),
    (Q5_LEAVE, "How much annual leave do staff get once they have ten years of service?", "29 days", ["29"], 1, "number"),
    (Q5_LEAVE, "Who owns the leave policy at Tamsin Foods?", "Grainne Whitlock", [], 1, "person"),
    (Q5_LEAVE, "On what day does the leave year begin?", "1 April", ["April 1"], 1, "date"),
    (Q5_LEAVE, "By when must leave carried over from last year be used up?", "30 June", ["June 30"], 1, "date"),
    (Q5_LEAVE, "Which site closes between Christmas and New Year?", "Harrowden", ["the Harrowden site"], 1, "place"),
    (Q5_LEAVE, "Which subsidiary's staff are also covered by the policy?", "Tamsin Bakeries Ltd", ["Tamsin Bakeries"], 1, "organization"),
    (Q5_LEAVE, "At what daily rate is untaken holiday paid out when someone leaves?", "1/260 of annual salary", ["1/260"], 1, "other"),
    (Q5_LEAVE, "How many days could be carried over under the previous issue of the policy?", None, [], None, "number"),
    (Q5_LEAVE, "What is the e-mail address of the HR adviser at the Pellbridge site?", None, [], None, "other"),
    (Q5_LEAVE, "How many people work at the Pellbridge site?", None, [], None, "number"),
    # ferry timetable (HTML tables: sailings, fares)
    (Q5_FERRY, "Which company runs the Corran Sound ferry?", "Sound Island Shipping Ltd", ["Sound Island Shipping"], 1, "organization"),
    (Q5_FERRY, "Until what date does the winter timetable run?", "28 March 2027", ["2027-03-28", "March 28, 2027"], 1, "date"),
    (Q5_FERRY, "What time is the first ferry from the mainland on a Sunday?", "10:40", [], 1, "other"),
    (Q5_FERRY, "If I take the quarter-past-twelve weekday boat from Ardcorran, when do I get to Inverbrae?", "12:50", [], 1, "other"),
    (Q5_FERRY, "What does it cost to take a car across one way?", "£14.90", ["14.90"], 1, "money"),
    (Q5_FERRY, "How long is the crossing?", "35 minutes", ["35 min"], 1, "number"),
    (Q5_FERRY, "Which extra stop does the Wednesday afternoon sailing make on request?", "Port Sgeir", [], 1, "place"),
    (Q5_FERRY, "What number should I ring to check whether the ferry is running?", "01688 555 210", ["01688555210"], 1, "other"),
    (Q5_FERRY, "How much is a 10-journey book for a motorcycle?", None, [], None, "money"),
    (Q5_FERRY, "When does the summer timetable start?", None, [], None, "date"),
    (Q5_FERRY, "What is the fare for a campervan longer than 5 metres?", None, [], None, "money"),
    # bus timetable (HTML tables: stops x journeys)
    (Q5_BUS, "What time does the first weekday bus leave Ashcombe bus station?", "06:35", [], 1, "other"),
    (Q5_BUS, "If I catch the 14:05 from Ashcombe, when will I be at the hospital?", "14:54", [], 1, "other"),
    (Q5_BUS, "How much is a day ticket?", "£5.40", ["5.40"], 1, "money"),
    (Q5_BUS, "How much is a weekly pass on the bus?", "£19.50", ["19.50"], 1, "money"),
    (Q5_BUS, "Which bus company operates route 12?", "Tallis Buses Ltd", ["Tallis Buses"], 1, "organization"),
    (Q5_BUS, "From what date is the new route 12 timetable in force?", "Sunday 6 September 2026", ["6 September 2026", "2026-09-06", "September 6, 2026"], 1, "date"),
    (Q5_BUS, "Which stop should I use now that Nursery Lane in Hatherley is no longer served?", "Hatherley, The Plough", ["The Plough"], 1, "place"),
    (Q5_BUS, "What time does the first bus leave the hospital to go back to Ashcombe?", None, [], None, "other"),
    (Q5_BUS, "How much is a monthly ticket?", None, [], None, "money"),
    (Q5_BUS, "At what time does the first Saturday bus reach Hatherley, The Plough?", None, [], None, "other"),
    # invoice (fixed-width plain text)
    (Q5_INV, "What is the number of the sign company's invoice?", "INV-20417", [], 1, "other"),
    (Q5_INV, "Who is the invoice billed to?", "Holmfirth Vale Brewing Co.", ["Holmfirth Vale Brewing"], 1, "organization"),
    (Q5_INV, "By what date does the invoice have to be paid?", "15 November 2026", ["2026-11-15", "November 15, 2026"], 1, "date"),
    (Q5_INV, "How much VAT is on the bill?", "622.82", ["£622.82"], 1, "money"),
    (Q5_INV, "How much is still left to pay once the deposit is taken off?", "1,986.92", ["£1,986.92", "1986.92"], 1, "money"),
    (Q5_INV, "Who signed the work off on site?", "K. Wadsworth", ["Wadsworth"], 1, "person"),
    (Q5_INV, "Where were the signs delivered to?", "The Taproom", ["12 Wharf Street", "The Taproom, 12 Wharf Street"], 1, "place"),
    (Q5_INV, "On what date did the sign company issue quotation Q-6120?", None, [], None, "date"),
    (Q5_INV, "What is the brewery's VAT registration number?", None, [], None, "other"),
    (Q5_INV, "How much of the fascia sign's price was for the LED lighting?", None, [], None, "money"),
    # purchase order (fixed-width plain text)
    (Q5_PO, "Who in the school ordered the equipment?", "Dr Priya Ramanathan", ["Priya Ramanathan"], 1, "person"),
    (Q5_PO, "Which company is the school buying the lab equipment from?", "Phoenix Lab Supplies Ltd", ["Phoenix Lab Supplies"], 1, "organization"),
    (Q5_PO, "How many microscopes is the school ordering?", "12", ["twelve"], 1, "number"),
    (Q5_PO, "What does one electronic balance cost?", "112.00", ["£112", "112"], 1, "money"),
    (Q5_PO, "What is the order worth in total, VAT included?", "2,479.86", ["£2,479.86", "2479.86"], 1, "money"),
    (Q5_PO, "By what date does the school need the goods?", "2 October 2026", ["2026-10-02", "October 2, 2026"], 1, "date"),
    (Q5_PO, "Which room should the delivery go to?", "Science Prep Room S4", ["Prep Room S4", "S4"], 1, "place"),
    (Q5_PO, "What is the supplier's phone number?", None, [], None, "other"),
    (Q5_PO, "How much do the nitrile gloves on the order cost?", None, [], None, "money"),
    (Q5_PO, "On what date were the goods delivered?", None, [], None, "date"),
]


# ---- Added 2026-11-27 (sixth blind helper session, branch qa6): batch docs6, ten more fiction
# documents (CC0) in five pairs of forms the earlier batches lack: insurance policy schedule and
# motor insurance certificate (2-page text PDFs), product recall notices (HTML), constitutions with
# articles (DOCX), utility bills (plain text), and conference / event programmes (Markdown tables).
# Names are prefixed a- ... j- so that, sorted by path, they take indexes 51-60 and each pair of the
# same form gets one report document (a, c, e, g, i) and one tune document (b, d, f, h, j).
Q6 = "tests/data/eval/qa/docs6/"
Q6_HOME = Q6 + "a-insurance-schedule-home-contents-wrenfield-2026.pdf"
Q6_FLEET = Q6 + "b-insurance-certificate-van-fleet-corbel-couriers.pdf"
Q6_COT = Q6 + "c-recall-notice-brightnest-travel-cot.html"
Q6_BARS = Q6 + "d-recall-notice-hollin-dairy-oat-bars.html"
Q6_ALLOT = Q6 + "e-constitution-larkspur-allotment-society.docx"
Q6_ROWING = Q6 + "f-constitution-tamarind-rowing-club.docx"
Q6_ELEC = Q6 + "g-utility-bill-electricity-ambergate-energy.txt"
Q6_WATER = Q6 + "h-utility-bill-water-calderbrook-2027.txt"
Q6_ARCH = Q6 + "i-programme-conference-coastal-archaeology-2027.md"
Q6_LIB = Q6 + "j-programme-library-data-day-2027.md"

Q += [
    # home contents insurance schedule (2-page PDF, running header)
    (Q6_HOME, "Whose name is first on the home contents policy?", "Anselm Okonkwo-Reyes", ["Mr Anselm Okonkwo-Reyes", "Okonkwo-Reyes"], 1, "person"),
    (Q6_HOME, "From what date is the flat covered?", "1 November 2026", ["2026-11-01", "November 1, 2026"], 1, "date"),
    (Q6_HOME, "What is the most the insurer pays for one valuable item that is not listed separately?", "£2,000", ["2,000", "2000"], 1, "money"),
    (Q6_HOME, "What is the grandfather clock insured for?", "£3,100", ["3,100", "3100"], 1, "money"),
    (Q6_HOME, "Which brokers arranged the home insurance?", "Hartsell & Pryde Insurance Brokers", ["Hartsell & Pryde", "Hartsell and Pryde"], 1, "organization"),
    (Q6_HOME, "How much of a claim do I pay myself if a burst pipe floods the flat?", "£350", ["350"], 2, "money"),
    (Q6_HOME, "What does the cover cost for the whole year once tax is added?", "£320.77", ["320.77"], 2, "money"),
    (Q6_HOME, "How long can the flat stand empty before theft cover is suspended?", "45 days", ["more than 45 days", "45"], 2, "number"),
    (Q6_HOME, "What is the buildings sum insured for the flat?", None, [], None, "money"),
    (Q6_HOME, "How much was the annual premium for the previous year?", None, [], None, "money"),
    (Q6_HOME, "What is the broker's telephone number?", None, [], None, "other"),
    # commercial van fleet motor insurance certificate (2-page PDF, running header)
    (Q6_FLEET, "Which firm is the policyholder on the fleet insurance?", "Corbel Couriers Limited", ["Corbel Couriers"], 1, "organization"),
    (Q6_FLEET, "When does the van insurance run out?", "30 November 2027", ["2027-11-30", "November 30, 2027"], 1, "date"),
    (Q6_FLEET, "How old does a member of staff have to be to drive the vans on this cover?", "23 or over", ["23", "aged 23 or over"], 1, "number"),
    (Q6_FLEET, "Who signed the certificate on behalf of the insurer?", "Rosalind Achterfeld", [], 1, "person"),
    (Q6_FLEET, "What is the own damage excess on the refrigerated van?", "£750", ["750"], 2, "money"),
    (Q6_FLEET, "How many vehicles were in the fleet when the policy started?", "14 vehicles", ["14"], 2, "number"),
    (Q6_FLEET, "What does the fleet policy cost per year, tax included?", "£38,912.60", ["38,912.60", "38912.60"], 2, "money"),
    (Q6_FLEET, "What is the registration number of the refrigerated van?", None, [], None, "other"),
    (Q6_FLEET, "What is the phone number of the broker, Dunmore Lyle Commercial?", None, [], None, "other"),
    (Q6_FLEET, "How much was the annual fleet premium last year?", None, [], None, "money"),
    # product recall notice (HTML): travel cot
    (Q6_COT, "How many times has the company been told that a hinge came undone?", "17 reports", ["17"], 1, "number"),
    (Q6_COT, "What colour is the VTC-201 cot?", "Sage green", [], 1, "other"),
    (Q6_COT, "Which batch codes of the grey travel cot are being recalled?", "2508A to 2512C", ["2508A-2512C"], 1, "other"),
    (Q6_COT, "What did the oatmeal-coloured cot sell for?", "£94.99", ["94.99"], 1, "money"),
    (Q6_COT, "Roughly how many of the faulty cots were sold?", "About 6,400", ["6,400", "6400"], 1, "number"),
    (Q6_COT, "What number can I ring about the cot recall?", "0800 046 3318", ["08000463318"], 1, "other"),
    (Q6_COT, "Who is BrightNest's managing director?", "Imelda Carrow-Baines", [], 1, "person"),
    (Q6_COT, "Which supplier made the faulty hinge?", "Taviston Precision Mouldings", [], 1, "organization"),
    (Q6_COT, "What is the barcode of the VTC-100 travel cot?", None, [], None, "other"),
    (Q6_COT, "How many of the affected cots were sold in Ireland?", None, [], None, "number"),
    (Q6_COT, "When did BrightNest receive the first report of a hinge unlocking?", None, [], None, "date"),
    # product recall notice (HTML): food allergy alert
    (Q6_BARS, "Which allergen is missing from the label of the breakfast bars?", "Peanut", ["peanuts"], 1, "other"),
    (Q6_BARS, "What is the best-before date on batch L26325?", "21 February 2027", ["2027-02-21", "February 21, 2027"], 1, "date"),
    (Q6_BARS, "What batch code is on the family pack?", "L26326", [], 1, "other"),
    (Q6_BARS, "How much does each bar weigh?", "35 g", ["35 grams", "35"], 1, "number"),
    (Q6_BARS, "On what date did the dairy put out the allergy alert?", "3 December 2026", ["2026-12-03", "December 3, 2026"], 1, "date"),
    (Q6_BARS, "Which supermarket chain stocked the bars?", "Vellamy's", ["Vellamy's supermarket chain"], 1, "organization"),
    (Q6_BARS, "What phone number does the dairy give for customers?", "01756 230 488", ["01756230488"], 1, "other"),
    (Q6_BARS, "How many packs of the affected bars were sold?", None, [], None, "number"),
    (Q6_BARS, "Which supplier delivered the wrong flapjack base?", None, [], None, "organization"),
    (Q6_BARS, "What is the e-mail address of the dairy's Communications Manager?", None, [], None, "other"),
    # constitution with articles (DOCX): allotment society
    (Q6_ALLOT, "How big is a full allotment plot?", "250 square metres", ["250 m2", "250"], 1, "number"),
    (Q6_ALLOT, "What is the 2026 rent for half a plot?", "£34", ["34"], 1, "money"),
    (Q6_ALLOT, "If I never pay my allotment rent, by what date do I stop being a member?", "30 November", ["November 30"], 1, "date"),
    (Q6_ALLOT, "During which months are bonfires allowed on the site?", "between 1 November and 28 February", ["1 November to 28 February", "November to February"], 1, "other"),
    (Q6_ALLOT, "Who looks after the allotment society's money?", "Soraya Lindqvist", [], 1, "person"),
    (Q6_ALLOT, "How many members have to sign a request for a special meeting?", "at least ten members", ["ten", "10"], 1, "number"),
    (Q6_ALLOT, "Which bank does the society keep its funds with?", "Ellerby Community Savings Bank", [], 1, "organization"),
    (Q6_ALLOT, "How long is the council's lease of the site?", "25 years", ["25"], 1, "number"),
    (Q6_ALLOT, "What will a full plot cost in 2027?", None, [], None, "money"),
    (Q6_ALLOT, "What is the largest polytunnel a member may put up?", None, [], None, "number"),
    (Q6_ALLOT, "Who is the society's vice-chair?", None, [], None, "person"),
    # constitution with articles (DOCX): rowing club
    (Q6_ROWING, "How much is the yearly subscription for a junior rower?", "£165", ["165"], 1, "money"),
    (Q6_ROWING, "What are the club's colours?", "maroon and silver", [], 1, "other"),
    (Q6_ROWING, "Who is captain of the rowing club?", "Tobias Wrenlow", [], 1, "person"),
    (Q6_ROWING, "Above what river level is nobody allowed out on the water?", "1.85 metres", ["1.85 m", "1.85"], 1, "number"),
    (Q6_ROWING, "What majority is needed to change the club's rules?", "at least three quarters of the votes cast", ["three quarters", "75%"], 1, "other"),
    (Q6_ROWING, "How many voting members must be present for a general meeting to be valid?", "25 voting members", ["25"], 1, "number"),
    (Q6_ROWING, "What is the club's affiliation number?", "BR-40713", [], 1, "other"),
    (Q6_ROWING, "Who is the club's Welfare Officer?", None, [], None, "person"),
    (Q6_ROWING, "What is the annual subscription for a masters member?", None, [], None, "money"),
    (Q6_ROWING, "On what date is the club's Annual General Meeting held?", None, [], None, "date"),
    # utility bill (plain text): electricity
    (Q6_ELEC, "How many units of night-rate electricity were used this quarter?", "720", ["720 kWh"], 1, "number"),
    (Q6_ELEC, "What is the price per unit for daytime electricity?", "18.62p per kWh", ["18.62p", "18.62 pence"], 1, "money"),
    (Q6_ELEC, "How much is the standing charge per day?", "52.50p per day", ["52.50p", "52.5p"], 1, "money"),
    (Q6_ELEC, "What is the account number on the electricity bill?", "8820 4417 63", ["8820441763"], 1, "other"),
    (Q6_ELEC, "How much is owed on this bill after payments?", "£7.46", ["7.46", "£7.46 DR"], 1, "money"),
    (Q6_ELEC, "Until when is the fixed tariff price guaranteed?", "30 June 2027", ["2027-06-30", "June 30, 2027"], 1, "date"),
    (Q6_ELEC, "Which company runs the local electricity network?", "Northmoor Electricity Networks", ["Northmoor"], 1, "organization"),
    (Q6_ELEC, "How much electricity did the household use in the same three months last year?", "2 349 kWh", ["2,349 kWh", "2349"], 1, "number"),
    (Q6_ELEC, "What was the night meter reading on 30 June 2026?", None, [], None, "number"),
    (Q6_ELEC, "What is the unit rate for gas?", None, [], None, "money"),
    (Q6_ELEC, "What is Ambergate Energy's customer service e-mail address?", None, [], None, "other"),
    # utility bill (plain text): water and sewerage
    (Q6_WATER, "What is the rateable value of the cottage?", "£214", ["214"], 1, "money"),
    (Q6_WATER, "What is the total water and sewerage bill for the year?", "£789.29", ["789.29"], 1, "money"),
    (Q6_WATER, "How much is the first direct debit payment?", "£65.93", ["65.93"], 1, "money"),
    (Q6_WATER, "How much did the customer pay for water and sewerage the year before?", "£738.12", ["738.12"], 1, "money"),
    (Q6_WATER, "By how much are average household bills rising?", "6.9%", ["6.9 per cent", "6.9"], 1, "number"),
    (Q6_WATER, "What number do I call to report a leak?", "0800 316 9945", ["08003169945"], 1, "other"),
    (Q6_WATER, "What is the customer number on the water bill?", "60-338-1407-2", [], 1, "other"),
    (Q6_WATER, "How much does metered water cost per cubic metre?", None, [], None, "money"),
    (Q6_WATER, "What is the e-mail address for billing queries?", None, [], None, "other"),
    (Q6_WATER, "What was the water supply rate per pound of rateable value in 2026/27?", None, [], None, "money"),
    # conference programme (Markdown tables): coastal archaeology
    (Q6_ARCH, "Who is organising the Shifting Shores conference?", "Society for Coastal Heritage", ["SCH", "the Society for Coastal Heritage"], 1, "organization"),
    (Q6_ARCH, "Who gives the keynote on the Saturday morning?", "Dr Idris Fenwick-Moyo", ["Idris Fenwick-Moyo"], 1, "person"),
    (Q6_ARCH, "Which room is the shipwreck session in?", "Room E1.14", ["E1.14"], 1, "place"),
    (Q6_ARCH, "Who is chairing the session about dating timber structures?", "Dr Bettina Ruhlmann", ["Bettina Ruhlmann"], 1, "person"),
    (Q6_ARCH, "How many people fit in the main lecture theatre?", "240", [], 1, "number"),
    (Q6_ARCH, "What does a student pay if they book early?", "£60", ["60"], 1, "money"),
    (Q6_ARCH, "What is the last day to get the early registration rate?", "31 March 2027", ["2027-03-31", "March 31, 2027"], 1, "date"),
    (Q6_ARCH, "Where is the conference dinner being held?", "The Boathouse Restaurant, Pellworth Quay", ["The Boathouse Restaurant", "Boathouse Restaurant"], 1, "place"),
    (Q6_ARCH, "Who chairs Session 3C?", None, [], None, "person"),
    (Q6_ARCH, "At what time does the conference dinner finish?", None, [], None, "other"),
    (Q6_ARCH, "How many poster abstracts were accepted?", None, [], None, "number"),
    # event programme (Markdown tables): library data day
    (Q6_LIB, "Who runs the workshop on data protection impact assessments?", "Farah Quddus-Lane", [], 1, "person"),
    (Q6_LIB, "What is the last day to book a place at the data day?", "28 January 2027", ["2027-01-28", "January 28, 2027"], 1, "date"),
    (Q6_LIB, "How much do people from outside the member authorities pay?", "£40", ["40"], 1, "money"),
    (Q6_LIB, "Where is the dashboard-building workshop held?", "Makerspace", ["the Makerspace"], 1, "place"),
    (Q6_LIB, "How many people can the Local Studies Room hold?", "seats 30", ["30"], 1, "number"),
    (Q6_LIB, "What does it cost to park all day at the nearest car park?", "£6.50", ["6.50"], 1, "money"),
    (Q6_LIB, "Which university is the speaker on ten years of loans data from?", "Vestmark University", [], 1, "organization"),
    (Q6_LIB, "Who leads Workshop E?", None, [], None, "person"),
    (Q6_LIB, "What is the organiser's phone number?", None, [], None, "other"),
    (Q6_LIB, "What is the postcode of Corbridge Central Library?", None, [], None, "other"),
]


# ---- Added 2026-11-27 (seventh blind helper session, branch qa7): batch docs7, ten more fiction
# documents (CC0) in five pairs of forms the earlier batches lack: medicine patient leaflets with a
# dosage table (multi-page text PDFs), job adverts with salary and benefits (DOCX), hotel and
# holiday-cottage booking confirmations (.eml), course syllabi with assessment weights (Markdown
# tables), and planning decision notices (plain text). Names are prefixed a- ... j- so that, sorted
# by path, they take indexes 61-70 and each pair of the same form gets one report document
# (a, c, e, g, i) and one tune document (b, d, f, h, j).
Q7 = "tests/data/eval/qa/docs7/"
Q7_DOLV = Q7 + "a-leaflet-dolvirin-200mg-tablets.pdf"
Q7_PYR = Q7 + "b-leaflet-pyrenol-junior-oral-suspension.pdf"
Q7_RANGER = Q7 + "c-job-advert-countryside-ranger-marrowdale.docx"
Q7_WARE = Q7 + "d-job-advert-night-warehouse-supervisor-quillon.docx"
Q7_HOTEL = Q7 + "e-booking-confirmation-saltbrae-harbour-hotel.eml"
Q7_COTT = Q7 + "f-booking-confirmation-larchgill-bramble-cottage.eml"
Q7_HYDRO = Q7 + "g-syllabus-gy2104-catchment-hydrology-2026-27.md"
Q7_ITAL = Q7 + "h-syllabus-italian-beginners-evening-class-2027.md"
Q7_GRANT = Q7 + "i-decision-notice-penhallow-26-0419-hou.txt"
Q7_REFUSE = Q7 + "j-decision-notice-kirkwell-27-0052-ful-refusal.txt"

Q += [
    # medicine patient leaflet (3-page text PDF, running header): painkiller tablets
    (Q7_DOLV, "After how many days of taking these for pain should I see a doctor if I'm no better?", "5 days for pain", ["5 days", "five days"], 1, "number"),
    (Q7_DOLV, "What is the most an adult under 65 can take in one day?", "3 tablets (600 mg)", ["3 tablets", "600 mg", "three tablets"], 2, "number"),
    (Q7_DOLV, "How many tablets a day at most if I'm over 65?", "2 tablets (400 mg)", ["2 tablets", "400 mg", "two tablets"], 2, "number"),
    (Q7_DOLV, "How long do I have to wait between two doses?", "at least 6 hours", ["6 hours", "six hours"], 2, "number"),
    (Q7_DOLV, "What colour are the Dolvirin tablets?", "pale orange", [], 3, "other"),
    (Q7_DOLV, "Which company holds the licence for Dolvirin?", "Castellane Pharma Ltd", ["Castellane Pharma"], 3, "organization"),
    (Q7_DOLV, "Which company actually makes the tablets?", "Ravelstrom Laboratories GmbH", ["Ravelstrom Laboratories"], 3, "organization"),
    (Q7_DOLV, "When was this leaflet last updated?", "August 2026", ["2026-08"], 3, "date"),
    (Q7_DOLV, "Which side effects of Dolvirin are very common, affecting more than 1 in 10 people?", None, [], None, "other"),
    (Q7_DOLV, "What is the telephone number of Castellane Pharma?", None, [], None, "other"),
    (Q7_DOLV, "What is the batch number of these tablets?", None, [], None, "other"),
    # medicine patient leaflet (2-page text PDF, running header): children's oral suspension
    (Q7_PYR, "How much should I give my three-year-old?", "7.5 ml (5 ml + 2.5 ml)", ["7.5 ml", "7.5"], 2, "number"),
    (Q7_PYR, "What should I give a child older than six instead?", "Pyrenol Six Plus 250 mg/5 ml Oral Suspension", ["Pyrenol Six Plus"], 2, "other"),
    (Q7_PYR, "How many doses can a child have in a day at most?", "4 doses", ["4", "four"], 2, "number"),
    (Q7_PYR, "How long does the medicine keep once the bottle has been opened?", "use within 6 months", ["6 months", "six months"], 2, "number"),
    (Q7_PYR, "How much sorbitol does a 5 ml spoonful contain?", "1.2 g per 5 ml", ["1.2 g", "1.2"], 1, "number"),
    (Q7_PYR, "Which company is responsible for Pyrenol Junior?", "Ardlow Healthcare plc", ["Ardlow Healthcare"], 2, "organization"),
    (Q7_PYR, "What is the licence number printed on the leaflet?", "PL 20583/0142", ["20583/0142"], 2, "other"),
    (Q7_PYR, "How many millilitres of Pyrenol Junior should a child aged 8 be given?", None, [], None, "number"),
    (Q7_PYR, "What is the telephone number of Ardlow Healthcare?", None, [], None, "other"),
    (Q7_PYR, "How much does the 200 ml bottle cost?", None, [], None, "money"),
    # job advert (DOCX): countryside ranger
    (Q7_RANGER, "What does the ranger job pay to start with?", "£29,840", ["29,840", "29840"], 1, "money"),
    (Q7_RANGER, "How long is the ranger contract for?", "18 months", ["18"], 1, "number"),
    (Q7_RANGER, "When do applications for the ranger post close?", "12 noon on 12 January 2027", ["12 January 2027", "2027-01-12"], 1, "date"),
    (Q7_RANGER, "Where will the ranger be based?", "Brantfell Visitor Centre", ["Brantfell"], 1, "place"),
    (Q7_RANGER, "How many days' holiday does a new ranger get?", "27 days plus bank holidays", ["27 days", "27"], 1, "number"),
    (Q7_RANGER, "How much does the employer put into the pension?", "17.1%", ["17.1 per cent", "17.1"], 1, "number"),
    (Q7_RANGER, "Who can I e-mail for an informal chat about the ranger job?", "Megan Tollervey", [], 1, "person"),
    (Q7_RANGER, "How much is the yearly training budget for each ranger?", "£1,200", ["1,200", "1200"], 1, "money"),
    (Q7_RANGER, "On what date does the successful ranger start work?", None, [], None, "date"),
    (Q7_RANGER, "What is Megan Tollervey's telephone number?", None, [], None, "other"),
    (Q7_RANGER, "What percentage of salary do employees pay into the pension?", None, [], None, "number"),
    # job advert (DOCX): night shift warehouse supervisor
    (Q7_WARE, "What is the basic yearly pay for the warehouse supervisor job?", "£34,500", ["34,500", "34500"], 1, "money"),
    (Q7_WARE, "How much extra is paid for working nights?", "15%", ["15 per cent", "15"], 1, "number"),
    (Q7_WARE, "What hours does the night shift work?", "19:00 to 07:00", ["19:00-07:00", "7pm to 7am"], 1, "other"),
    (Q7_WARE, "Who would the supervisor report to?", "Dariusz Fenhollow", [], 1, "person"),
    (Q7_WARE, "How many people would I be in charge of on the night shift?", "14 warehouse operatives", ["14"], 1, "number"),
    (Q7_WARE, "What is the deadline for applying to Quillon?", "9 February 2027", ["2027-02-09", "February 9, 2027"], 1, "date"),
    (Q7_WARE, "How much life cover comes with the job?", "two times basic salary", ["2x basic salary", "twice basic salary"], 1, "other"),
    (Q7_WARE, "What is the salary for the day shift supervisor?", None, [], None, "money"),
    (Q7_WARE, "What is the recruitment team's telephone number?", None, [], None, "other"),
    (Q7_WARE, "How much does Quillon contribute to the workplace pension?", None, [], None, "number"),
    # booking confirmation e-mail (.eml): hotel
    (Q7_HOTEL, "What is my booking reference for the hotel?", "SBH-77310", [], 1, "other"),
    (Q7_HOTEL, "What is the earliest I can get into my room on arrival day?", "15:00", ["3 pm", "3:00 pm"], 1, "other"),
    (Q7_HOTEL, "What kind of room did I book?", "Superior Sea View Double", [], 1, "other"),
    (Q7_HOTEL, "How much is the room per night?", "£164.00", ["164.00", "£164", "164"], 1, "money"),
    (Q7_HOTEL, "How much is left to pay when I arrive at the hotel?", "£246.00", ["246.00", "£246", "246"], 1, "money"),
    (Q7_HOTEL, "What is the last moment I can cancel without losing money?", "15:00 on Wednesday 17 March 2027", ["17 March 2027", "2027-03-17"], 1, "date"),
    (Q7_HOTEL, "What does it cost to park at the hotel?", "£12 per day", ["£12", "12"], 1, "money"),
    (Q7_HOTEL, "What time is the dinner table booked for?", "19:30", ["7:30 pm", "7.30 pm"], 1, "other"),
    (Q7_HOTEL, "What is my room number?", None, [], None, "other"),
    (Q7_HOTEL, "How much does dinner in the Lantern Room cost per person?", None, [], None, "money"),
    (Q7_HOTEL, "How much is the charge for a late check-out?", None, [], None, "money"),
    # booking confirmation e-mail (.eml): holiday cottage
    (Q7_COTT, "Who owns the holiday cottage?", "Hal and Perpetua Venn", ["Hal Venn", "Perpetua Venn"], 1, "person"),
    (Q7_COTT, "How many people can stay in Bramble Cottage?", "4 (one double, one twin)", ["4", "four"], 1, "number"),
    (Q7_COTT, "How much do I still owe for the cottage?", "£725.00", ["725.00", "£725", "725"], 1, "money"),
    (Q7_COTT, "When does the rest of the money for the cottage have to be paid?", "19 June 2027", ["2027-06-19", "June 19, 2027"], 1, "date"),
    (Q7_COTT, "How much extra is it to bring the dog?", "£30.00", ["30.00", "£30", "30"], 1, "money"),
    (Q7_COTT, "By what time do we have to leave the cottage on the last day?", "by 10:00", ["10:00", "10 am"], 1, "other"),
    (Q7_COTT, "How far is it to the nearest shop?", "1.5 miles", ["1.5"], 1, "number"),
    (Q7_COTT, "What is the code for the key safe?", None, [], None, "other"),
    (Q7_COTT, "What is the owners' telephone number?", None, [], None, "other"),
    (Q7_COTT, "How much does the recommended cancellation insurance cost?", None, [], None, "money"),
    # course syllabus (Markdown tables): university module
    (Q7_HYDRO, "Who is in charge of the hydrology module?", "Dr Oriel Stanbridge", ["Oriel Stanbridge"], 1, "person"),
    (Q7_HYDRO, "How many credits is GY2104 worth?", "20 credits", ["20"], 1, "number"),
    (Q7_HYDRO, "How much does the field report count towards the module mark?", "40%", ["40 per cent", "40"], 1, "number"),
    (Q7_HYDRO, "When is the field report due?", "12:00, 12 March 2027", ["12 March 2027", "2027-03-12"], 1, "date"),
    (Q7_HYDRO, "How long is the exam?", "2 hours", ["two hours"], 1, "number"),
    (Q7_HYDRO, "How many marks are taken off for each working day a piece of work is late?", "5 percentage points per working day", ["5 percentage points", "5"], 1, "number"),
    (Q7_HYDRO, "What is the lecture about in week 6?", "Groundwater and baseflow", [], 1, "other"),
    (Q7_HYDRO, "Where do the lectures take place?", "Lecture Theatre G.12", ["G.12"], 1, "place"),
    (Q7_HYDRO, "On what date is the GY2104 written examination?", None, [], None, "date"),
    (Q7_HYDRO, "What are the names of the postgraduate demonstrators?", None, [], None, "person"),
    (Q7_HYDRO, "What is the word limit for the practical portfolio?", None, [], None, "number"),
    # course syllabus (Markdown tables): adult evening class
    (Q7_ITAL, "Who teaches the Italian evening class?", "Chiara Bellamy-Osei", [], 1, "person"),
    (Q7_ITAL, "How much is the course if I'm on a means-tested benefit?", "£72", ["72"], 1, "money"),
    (Q7_ITAL, "When is the first Italian class?", "13 January 2027", ["2027-01-13", "January 13, 2027"], 1, "date"),
    (Q7_ITAL, "Which book do I need for the course?", "Passo dopo passo 1", [], 1, "other"),
    (Q7_ITAL, "What do we learn about in week 5?", "Getting around town", [], 1, "other"),
    (Q7_ITAL, "How many of the classes do I need to attend to get a certificate?", "at least 80%", ["80%", "80"], 1, "number"),
    (Q7_ITAL, "How many people can be in the class?", "up to 16 learners", ["16"], 1, "number"),
    (Q7_ITAL, "How much does the Level 2 Italian course cost?", None, [], None, "money"),
    (Q7_ITAL, "What is the tutor's e-mail address?", None, [], None, "other"),
    (Q7_ITAL, "What is the topic of the class on 31 March?", None, [], None, "other"),
    # planning decision notice (plain text): householder permission granted
    (Q7_GRANT, "Who applied for planning permission for 14 Quarry Lane?", "Mr and Mrs Teodor Lisk", ["Teodor Lisk"], 1, "person"),
    (Q7_GRANT, "When was the decision on the extension made?", "28 July 2026", ["2026-07-28", "July 28, 2026"], 1, "date"),
    (Q7_GRANT, "How long do the owners have to start building?", "three years", ["3 years"], 1, "number"),
    (Q7_GRANT, "What time can the builders start work on a Saturday?", "08:30", ["8:30", "8.30 am"], 1, "other"),
    (Q7_GRANT, "Which house's privacy is the frosted window meant to protect?", "12 Quarry Lane", [], 1, "place"),
    (Q7_GRANT, "Who signed off the decision for the council?", "Anwen Trelawney-Price", [], 1, "person"),
    (Q7_GRANT, "Who designed the plans for the applicants?", "Fernlow Architectural Design", [], 1, "organization"),
    (Q7_GRANT, "How long is there to appeal against a condition?", "12 weeks", ["twelve weeks"], 1, "number"),
    (Q7_GRANT, "What fee was paid for the planning application?", None, [], None, "money"),
    (Q7_GRANT, "What is the case officer's telephone number?", None, [], None, "other"),
    (Q7_GRANT, "How many neighbours objected to the extension?", None, [], None, "number"),
    # planning decision notice (plain text): refusal of a change of use
    (Q7_REFUSE, "On what date was the takeaway application turned down?", "14 April 2027", ["2027-04-14", "April 14, 2027"], 1, "date"),
    (Q7_REFUSE, "Which company wanted to open the takeaway?", "Saffron Lantern Ltd", ["Saffron Lantern"], 1, "organization"),
    (Q7_REFUSE, "What share of the shops in the frontage may be takeaways at most?", "20%", ["20 per cent", "20"], 1, "number"),
    (Q7_REFUSE, "How many takeaways are there on Market Row already?", "3 are already hot food takeaways", ["3", "three"], 1, "number"),
    (Q7_REFUSE, "Who dealt with the application at the council?", "Noor Halvorsen", [], 1, "person"),
    (Q7_REFUSE, "How long does the applicant have to appeal?", "6 months", ["six months"], 1, "number"),
    (Q7_REFUSE, "How wide is the alley at the back of the shop?", "1.1 metres", ["1.1 m", "1.1"], 1, "number"),
    (Q7_REFUSE, "What opening hours did the takeaway propose?", None, [], None, "other"),
    (Q7_REFUSE, "How many letters of objection did the council receive?", None, [], None, "number"),
    (Q7_REFUSE, "On what date did the planning committee consider the takeaway application?", None, [], None, "date"),
]


# ---- Added 2026-11-27 (eighth blind helper session, branch qa8): batch docs8, ten more fiction
# documents (CC0) in five pairs of forms the earlier batches lack: restaurant and cafe menus with
# allergen information (2-page text PDFs), clinical and observational study participant
# information sheets (DOCX), school newsletters (.eml), software release notes and a changelog
# (Markdown tables), and product warranty certificates (plain text). Names are prefixed a- ... j-
# so that, sorted by path, they take indexes 71-80 and each pair of the same form gets one report
# document (a, c, e, g, i) and one tune document (b, d, f, h, j).
Q8 = "tests/data/eval/qa/docs8/"
Q8_GAN = Q8 + "a-menu-gannet-and-sloe-dinner-spring-2027.pdf"
Q8_PEL = Q8 + "b-menu-pellows-kitchen-market-hall-cafe.pdf"
Q8_CALM = Q8 + "c-participant-info-calmer-m-migraine-trial.docx"
Q8_SLEEP = Q8 + "d-participant-info-sleepwell-teen-sleep-study.docx"
Q8_FERN = Q8 + "e-newsletter-fernhill-lane-primary-2027-01-22.eml"
Q8_CARR = Q8 + "f-newsletter-carrowmere-academy-spring-2027.eml"
Q8_SKIFF = Q8 + "g-release-notes-skiffnote-desktop-5-4.md"
Q8_LANT = Q8 + "h-changelog-lanternfish-cli.md"
Q8_VARN = Q8 + "i-warranty-card-varnholm-vwm-8140-washing-machine.txt"
Q8_CORR = Q8 + "j-warranty-certificate-corriebank-tarn-2-ebike.txt"

Q += [
    # restaurant dinner menu (2-page text PDF, running header): dishes and prices on page 1, allergen table on page 2
    (Q8_GAN, "How much is the crab on toast starter?", "£11.50", ["11.50"], 1, "money"),
    (Q8_GAN, "What does the vegetarian risotto cost?", "£18.50", ["18.50"], 1, "money"),
    (Q8_GAN, "How much is the chef's tasting menu per head?", "£68 per person", ["£68", "68"], 1, "money"),
    (Q8_GAN, "Who runs the kitchen at the Gannet & Sloe?", "Ottilie Brannagh-Moss", [], 1, "person"),
    (Q8_GAN, "What's the latest I can put in a dinner order?", "21:30", ["9:30 pm", "9.30 pm"], 1, "other"),
    (Q8_GAN, "Which allergens are in the hake main course?", "Fish, Molluscs, Celery, Sulphites", [], 2, "other"),
    (Q8_GAN, "What could the roast squash starter pick up traces of from the kitchen?", "Sesame, Peanuts", ["sesame and peanuts"], 2, "other"),
    (Q8_GAN, "What percentage gets added to the bill if we're a group of eight?", "12.5%", ["12.5 per cent", "12.5"], 2, "number"),
    (Q8_GAN, "How many calories are in the pan-roasted hake?", None, [], None, "number"),
    (Q8_GAN, "How much does the wine pairing with the tasting menu cost?", None, [], None, "money"),
    (Q8_GAN, "What phone number do I ring to book a table?", None, [], None, "other"),
    # cafe menu (2-page text PDF, running header): dishes with allergen numbers on page 1, drinks, allergen key and hours on page 2
    (Q8_PEL, "Until what time can I get breakfast at Pellow's?", "11:30", ["11.30 am", "11:30 am"], 1, "other"),
    (Q8_PEL, "How much is the full cooked breakfast with bacon and sausage?", "£9.80", ["9.80"], 1, "money"),
    (Q8_PEL, "Which allergen numbers are listed for the mackerel on toast?", "1, 3, 4, 7, 10", [], 1, "other"),
    (Q8_PEL, "What does allergen number 11 stand for on the menu?", "Sesame seeds", ["sesame"], 2, "other"),
    (Q8_PEL, "How much more is it to have oat milk in a coffee?", "40p", ["£0.40", "40 pence"], 2, "money"),
    (Q8_PEL, "What time does the café close on a Sunday?", "Sunday 09:00 to 15:00", ["15:00", "3 pm"], 2, "other"),
    (Q8_PEL, "What do they charge for a bowl of soup with bread?", "£6.20", ["6.20"], 1, "money"),
    (Q8_PEL, "How much extra is it for gluten-free bread?", None, [], None, "money"),
    (Q8_PEL, "Which allergens are in the lemon drizzle cake?", None, [], None, "other"),
    (Q8_PEL, "What are the café's opening hours on a bank holiday Monday?", None, [], None, "other"),
    # participant information sheet (DOCX): drug trial
    (Q8_CALM, "For how long would I be taking the study tablets?", "24 weeks", ["24"], 1, "number"),
    (Q8_CALM, "What are the odds that I end up on the dummy pill?", "1 in 3", ["one in three", "33%"], 1, "number"),
    (Q8_CALM, "How many times would I have to go in to the research clinic?", "six clinic visits", ["6", "six"], 1, "number"),
    (Q8_CALM, "How much of my travel costs will they pay back for each visit?", "up to £25 per visit", ["£25", "25"], 1, "money"),
    (Q8_CALM, "Who is the lead researcher for the whole trial?", "Professor Imelda Okonjo-Verity", ["Imelda Okonjo-Verity"], 1, "person"),
    (Q8_CALM, "Which organisation is paying for the migraine trial?", "Brannock Medical Research Foundation", [], 1, "organization"),
    (Q8_CALM, "What is the ethics committee's reference number for CALMER-M?", "26/NW/0187", [], 1, "other"),
    (Q8_CALM, "How long is my study data kept after the trial ends?", "15 years", ["fifteen years"], 1, "number"),
    (Q8_CALM, "How many patients will be recruited at Westmere General Hospital?", None, [], None, "number"),
    (Q8_CALM, "What dose of nivotrepan is normally prescribed for high blood pressure?", None, [], None, "number"),
    (Q8_CALM, "When will the trial's results be published?", None, [], None, "date"),
    # participant information sheet (DOCX): observational study with young people
    (Q8_SLEEP, "How many nights in a row does the wristband have to be worn?", "14 nights", ["14", "fourteen"], 1, "number"),
    (Q8_SLEEP, "How long does the daily morning survey take?", "about 10 minutes", ["10 minutes", "10"], 1, "number"),
    (Q8_SLEEP, "What do teenagers get for sending the sensor back?", "£30 e-voucher", ["£30", "30"], 1, "money"),
    (Q8_SLEEP, "How long would the optional interview last?", "about 45 minutes", ["45 minutes", "45"], 1, "number"),
    (Q8_SLEEP, "Who is in charge of the SLEEPWELL-T study?", "Dr Kwabena Ashdown-Fry", ["Kwabena Ashdown-Fry"], 1, "person"),
    (Q8_SLEEP, "How long after returning the sensor can we still have our data removed?", "up to 4 weeks after you return the sensor", ["4 weeks", "four weeks"], 1, "number"),
    (Q8_SLEEP, "What ages is the sleep study open to?", "aged 13 to 17", ["13 to 17", "13-17"], 1, "number"),
    (Q8_SLEEP, "How much is the voucher for doing the interview?", None, [], None, "money"),
    (Q8_SLEEP, "How many teenagers will take part in the study altogether?", None, [], None, "number"),
    (Q8_SLEEP, "What make of wrist sensor will my child wear?", None, [], None, "other"),
    # school newsletter e-mail (.eml): primary school weekly bulletin
    (Q8_FERN, "What was the school's overall attendance this week?", "95.8%", ["95.8"], 1, "number"),
    (Q8_FERN, "Which class won the attendance trophy?", "Otters (Year 3)", ["Otters"], 1, "other"),
    (Q8_FERN, "How much does the Year 4 Roman fort trip cost?", "£14.50", ["14.50"], 1, "money"),
    (Q8_FERN, "By when do I need to pay for the Roman fort trip?", "Friday 29 January", ["29 January", "2027-01-29"], 1, "date"),
    (Q8_FERN, "How much money did the winter fair bring in?", "£1,846.20", ["1,846.20", "1846.20"], 1, "money"),
    (Q8_FERN, "Who is covering Year 5 while Miss Halloran is off?", "Mr Idris Pemberton-Shaw", ["Idris Pemberton-Shaw"], 1, "person"),
    (Q8_FERN, "Which e-mail address did the Friday bulletin come from?", "office@fernhilllane.example.sch.uk", [], 1, "other"),
    (Q8_FERN, "On which day after half term is the school shut for staff training?", "Monday 22 February", ["22 February", "2027-02-22"], 1, "date"),
    (Q8_FERN, "How much does after-school club cost per session?", None, [], None, "money"),
    (Q8_FERN, "What time does the Year 4 coach leave for Caldwick?", None, [], None, "other"),
    (Q8_FERN, "What was Year 6's attendance this week?", None, [], None, "number"),
    # school newsletter e-mail (.eml): secondary academy half-term edition
    (Q8_CARR, "When do the Year 11 mocks begin?", "Monday 1 March", ["1 March 2027", "2027-03-01"], 1, "date"),
    (Q8_CARR, "How much is a ticket for the Year 11 prom?", "£38", ["38"], 1, "money"),
    (Q8_CARR, "By what score did the under-15 netball team win the county cup final?", "24-17", [], 1, "other"),
    (Q8_CARR, "Who is the head of Carrowmere Academy?", "Lachlan Fairweather-Nkemelu", [], 1, "person"),
    (Q8_CARR, "Who will sell the school uniform from April?", "Thornbury Schoolwear", [], 1, "organization"),
    (Q8_CARR, "On what date was this newsletter e-mailed to families?", "11 Feb 2027", ["2027-02-11", "11 February 2027"], 1, "date"),
    (Q8_CARR, "How many students did the Bronze DofE practice expedition?", "42 students", ["42"], 1, "number"),
    (Q8_CARR, "What time does the Year 11 prom start?", None, [], None, "other"),
    (Q8_CARR, "How much does a blazer cost from the new uniform supplier?", None, [], None, "money"),
    (Q8_CARR, "What was the score in the under-13 football quarter-final?", None, [], None, "other"),
    # software release notes (Markdown tables): desktop app
    (Q8_SKIFF, "When did Skiffnote 5.4 come out?", "11 May 2027", ["2027-05-11", "May 11, 2027"], 1, "date"),
    (Q8_SKIFF, "What's the full build number of this release?", "5.4.0.2291", [], 1, "other"),
    (Q8_SKIFF, "What's the oldest version of macOS it will run on?", "macOS 12.4", ["12.4"], 1, "other"),
    (Q8_SKIFF, "How much free disk space does Skiffnote need on Linux?", "700 MB", ["700"], 1, "number"),
    (Q8_SKIFF, "Which ticket was the crash when pasting very large images?", "SKN-4417", [], 1, "other"),
    (Q8_SKIFF, "Until when will version 5.3 get security patches?", "30 November 2027", ["2027-11-30", "November 30, 2027"], 1, "date"),
    (Q8_SKIFF, "After which version will there be no more 32-bit Windows builds?", "5.6", ["version 5.6"], 1, "other"),
    (Q8_SKIFF, "How big can a single attachment be now?", "250 MB", ["250"], 1, "number"),
    (Q8_SKIFF, "When will Skiffnote 5.5 be released?", None, [], None, "date"),
    (Q8_SKIFF, "In which version will the Wayland drag-and-drop problem be fixed?", None, [], None, "other"),
    (Q8_SKIFF, "How much does a Skiffnote Pro subscription cost?", None, [], None, "money"),
    # changelog (Markdown, Keep a Changelog style, support table): command-line tool
    (Q8_LANT, "When did lanternfish 3.0.0 come out?", "2027-02-16", ["16 February 2027", "February 16, 2027"], 1, "date"),
    (Q8_LANT, "Which Python versions did lanternfish 3.0 stop supporting?", "Python 3.8 and 3.9", ["3.8 and 3.9"], 1, "other"),
    (Q8_LANT, "What is the old up command called now?", "lanternfish apply", ["apply"], 1, "other"),
    (Q8_LANT, "Which release stopped passwords showing up in the log file?", "2.9.1", [], 1, "other"),
    (Q8_LANT, "What is the advisory ID for the password logging problem?", "LF-SA-2027-01", [], 1, "other"),
    (Q8_LANT, "Until when will the 2.9 series be looked after?", "2027-08-31", ["31 August 2027", "August 31, 2027"], 1, "date"),
    (Q8_LANT, "Who reported the password leak?", "Mirela Kostadinova", [], 1, "person"),
    (Q8_LANT, "When is the release with the JSON output for diff coming out?", None, [], None, "date"),
    (Q8_LANT, "Which MySQL versions does lanternfish 3.0 support?", None, [], None, "other"),
    (Q8_LANT, "What is the CVE number for the password logging flaw?", None, [], None, "other"),
    # warranty certificate (plain text): washing machine manufacturer's guarantee
    (Q8_VARN, "How long is the washing machine covered for parts and labour?", "2 years from the date of purchase", ["2 years", "two years"], 1, "number"),
    (Q8_VARN, "How many years is the motor guaranteed for?", "10 years", ["ten years"], 1, "number"),
    (Q8_VARN, "What's the model number of the machine?", "VWM-8140", [], 1, "other"),
    (Q8_VARN, "What purchase date is on the guarantee card?", "14/03/2027", ["2027-03-14", "14 March 2027"], 1, "date"),
    (Q8_VARN, "How long do I have to register the machine?", "within 28 days of purchase", ["28 days"], 1, "number"),
    (Q8_VARN, "What will I be charged if the engineer comes out and finds nothing wrong?", "£89", ["89"], 1, "money"),
    (Q8_VARN, "Which shop sold the washing machine?", "Penrose Electrical", [], 1, "organization"),
    (Q8_VARN, "What number do I ring to get a repair booked?", "01632 960772", ["01632960772"], 1, "other"),
    (Q8_VARN, "How much does it cost to extend the guarantee to five years?", None, [], None, "money"),
    (Q8_VARN, "What is the machine's serial number?", None, [], None, "other"),
    (Q8_VARN, "How much is the labour charge for a motor repair in the fifth year?", None, [], None, "money"),
    # warranty certificate (plain text): e-bike limited warranty with a coverage table
    (Q8_CORR, "How long is the e-bike battery guaranteed?", "2 years or 500 full charge cycles", ["2 years", "500 full charge cycles"], 1, "number"),
    (Q8_CORR, "Below what remaining capacity does the battery count as faulty?", "below 60%", ["60%", "60"], 1, "number"),
    (Q8_CORR, "How long is the frame covered for me as the first owner?", "lifetime of the original owner", ["lifetime"], 1, "other"),
    (Q8_CORR, "If I sell the bike, how long does the frame warranty last for the buyer?", "5 years from the original purchase date", ["5 years", "five years"], 1, "number"),
    (Q8_CORR, "Which bike shop sold the e-bike?", "Windlestrae Cycles", [], 1, "organization"),
    (Q8_CORR, "How often does the bike need a service to keep the warranty?", "every 12 months", ["12 months", "once a year"], 1, "number"),
    (Q8_CORR, "What is the frame number?", "CB-TN2-27-004861", [], 1, "other"),
    (Q8_CORR, "What is the power rating of the motor in watts?", None, [], None, "number"),
    (Q8_CORR, "How much does the yearly dealer service cost?", None, [], None, "money"),
    (Q8_CORR, "What is Corriebank's customer service phone number?", None, [], None, "other"),
]


def main():
    docs = sorted({q[0] for q in Q})
    split = {d: ("tune" if i % 2 == 0 else "report") for i, d in enumerate(docs)}
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "qa.jsonl"), "w", encoding="utf-8") as f:
        for n, (doc, question, answer, alts, page, atype) in enumerate(Q, 1):
            rec = {"id": f"qa-{n:03d}", "split": split[doc], "document": doc, "question": question,
                   "answerable": answer is not None, "answer": answer or "", "alternatives": alts,
                   "page": page, "answer_type": atype}
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(len(Q), "questions;", {d: split[d] for d in docs})


if __name__ == "__main__":
    main()
