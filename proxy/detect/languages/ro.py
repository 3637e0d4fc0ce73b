"""Romanian: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=False,
    negations="",
    whole_words=False,
)

WORDS = {
    "ignore": "ignoră|ignorați|ignora|uită|uitați|nu ține cont|nu țineți cont|nu respecta",
    "previous": (
        "anterioar|=precedente|=precedentele|=de mai sus|=inițiale|=originale|=primite până acum"
        "|până acum"
    ),
    "all": "=toate|=tot|=toți|=orice|=întreg|=întreaga",
    "instructions": (
        "instrucțiun|=reguli|=regulile|directiv|=comenzi|=comenzile|=restricții|=restricțiile"
        "|=ordine|=indicații|=indicațiile"
    ),
    "system": "=sistem|=sistemului|=sistemul",
    "prompt": "=prompt|=promptul|=promptului",
    "message": "mesaj",
    "reveal": (
        "=arată|=afișează|=dezvăluie|=repetă|=scrie|=copiază|=lipește|=spune-mi|=tipărește"
        "|=reproduce"
    ),
    "verbatim": "=cuvânt cu cuvânt|textual|=integral|=complet|=în întregime",
    "your": "=tău|=ta|=tale|=tăi|=vostru|=voastre|=dumneavoastră",
    "ai": "=ai|=ia|asistent|model lingvistic|=bot|=botul|chatbot|=modelul|inteligență artificială",
    "now": "de acum înainte|de acum|=acum ești|din acest moment",
    "role": "=comportă-te ca|=prefă-te|=joacă rolul|=noul tău rol|=acționează ca",
    "unrestricted": (
        "fără restricții|fără reguli|nicio regulă|nerestricționat|necenzurat|fără filtre"
        "|modul dezvoltator"
    ),
    "no_refusal": "nu refuza niciodată|nu refuza|orice cerere|fiecare cerere",
    "answer_with": "=răspunde|=răspundeți|=spune",
    "you_are": "=ești|=tu ești|=vei fi|=numele tău este|=te numești",
    "persona": "=identitate|=identitatea|=persona|=personaj|=modul",
    "disable": "dezactivează|=oprește|=elimină|=scoate",
    "safeguard": "siguranț|securitate|filtr|cenzur",
    "new": "=noi|=noua|=noul|=nou|=adevărate",
    "secret": (
        "=parola ta|=parola mea|=parola contului|=parolele|=parolei|cheia api|cheie api|=token"
        "|cheia privată|date de autentificare|card de credit|cod unic|=cnp|codul de securitate"
    ),
    "send": "=trimite|=trimiteți|=redirecționează|=încarcă|=partajează|=transferă|=trimite-mi",
    "user_data": (
        "=e-mailurile|=e-mailuri|mesajele|fișier|=documentele|=documentul|=documente|=contactele"
        "|=contacte|conversați|=inbox|date personale|=agenda mea|=agenda ta|=calendar|=calendarul"
        "|atașament"
    ),
    "conceal": "nu spune|nu-i spune|nu menționa|fără să spui|fără să anunți|în secret|=pe ascuns",
    "instead": "=în schimb|=în loc de asta",
    "steer": "=menționează|=descrie|=omite|=afirmă că|=recomandă",
    "user": "utilizator|proprietar",
    "admin": "administrator|=admin|dezvoltator|echipa de securitate|=operator",
    "note": "=notă|=atenție|=mesaj pentru|=avertisment",
    "run": "=rulează|=execută|=apelează|=lansează",
    "tool": "instrument|=funcția|=funcție|=funcții|comand|=script|=scriptul",
    "say": "=spune|=răspunde|=scrie|=începe răspunsul",
    "only": "=doar|=numai|=exclusiv|=nimic altceva",
    "hidden": "ascuns|=interne|=secret|=secrete|=secretă|=confidențial|=confidențiale",
    "authority": "autoritate|autorizat|privilegii|drepturi de administrator|acces complet",
    "reply": "=răspunsul tău|=răspunsul|=fiecare răspuns",
    "begin": "=începe|=începeți",
    "cancel": "anulat|nu mai sunt valabile|nu mai sunt valide|revocat|invalid",
    "task": "=sarcina|=sarcină|=scopul|=misiunea|=obiectivul",
    "i_am": "=sunt|=eu sunt|=aici vorbește|=în numele",
    "act": (
        "=acordă|=deblochează|=transferă|=plătește|=șterge|=partajează|=vinde|=cumpără|=resetează"
        "|=dezactivează|=invită|=aprobă|=rezervă|=schimbă|=adaugă|=modifică"
    ),
    "asset": (
        "=cont|=contul|acces|permisiun|dispozitiv|încuietoare|=ușa de la intrare|=ușii|=camera"
        "|=camerele|alarm|=bani|plată|=banca|portofel|bitcoin|acțiuni|dosar|rezervar|întâlnir"
        "|=card|=cardul"
    ),
    "please": "=te rog|=vă rog|=poți|=ați putea|=trebuie să",
    "my": "=meu|=mea|=mele|=mei|=nostru|=noastre",
    "given": "=primite|=ai primit|=ți-au fost date|=care ți-au fost date|=primit",
    "urgent": "=imediat|=urgent|=de îndată",
    "if_you_are": "=dacă ești|=fiindcă ești|=când ești",
    "reading_this": "=care citește|=care citești|=care procesează|=care rezumă|=care gestionează",
    "on_behalf": "=în numele|=pentru titular|=pentru cineva",
    "wish": "=vrea ca|=cere ca|=a cerut ca|=dorește ca",
    "modal": "=trebuie|=ar trebui|=va trebui",
    "discussion": (
        "=atac|atacator|=injecție|=injecția|=injecții|cercetător|studiu|=de exemplu|vulnerabilitat"
    ),
}
