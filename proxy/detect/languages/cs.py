"""Czech: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=False,
    negations="",
    whole_words=False,
)

WORDS = {
    "ignore": "ignoruj|ignorovat|zapomeň|zapomenout|nevšímej si|nedbej|přehlížej|neřiď se",
    "previous": "předchozí|předešl|=výše|původní|dosavadní|dřívější",
    "all": "=všechny|=všechno|=vše|=veškeré|=celý|=celou|=každý",
    "instructions": "instrukc|pokyn|=pravidla|=pravidel|směrnic|příkaz|omezení|nařízení",
    "system": "=systém|=systému|=systémem|systémov",
    "prompt": "=prompt|=promptu|=výzva|systémový prompt",
    "message": "zpráv",
    "reveal": (
        "=ukaž|=zobraz|=vypiš|=prozraď|=odhal|=zopakuj|=zkopíruj|=vlož|=napiš|=řekni mi|=sděl"
    ),
    "verbatim": "doslova|slovo od slova|=v plném znění|=celý text|=kompletní|doslovně",
    "your": "=tvůj|=tvoje|=tvé|=tvá|=tvých|=svůj|=svoje|=své|=vaše|=váš",
    "ai": "=ai|=ui|asistent|jazykový model|=bot|=robot|=robota|=robote|chatbot|=model",
    "now": "od teď|od této chvíle|odteď|=nyní jsi|=teď jsi|od nynějška",
    "role": "=chovej se jako|=předstírej|=hraj roli|=tvoje nová role|=vystupuj jako|=jednej jako",
    "unrestricted": (
        "bez omezení|bez pravidel|žádná pravidla|neomezen|necenzurovan|bez filtrů|vývojářský režim"
    ),
    "no_refusal": "nikdy neodmítej|nikdy neodmítne|neodmítej|každý požadavek|každou žádost",
    "answer_with": "=odpověz|=odpovídej|=řekni|=odpověz pouze",
    "you_are": "=jsi|=ty jsi|=budeš|=jmenuješ se|=tvoje jméno je",
    "persona": "=identitu|=identita|=identitou|=persona|=postava|=režim",
    "disable": "vypni|deaktivuj|=odstraň|=zruš",
    "safeguard": "bezpečnost|filtr|cenzur|omezení",
    "new": "=nový|=nové|=nová|=skutečné|=pravé",
    "secret": (
        "hesl|=heslo|api klíč|api-klíč|=token|soukromý klíč|přihlašovací údaje|platební kart"
        "|jednorázový kód|=cnp"
    ),
    "send": "=pošli|=pošlete|=odešli|=přepošli|přesměruj|=nahraj|=sdílej|=sdílejte|=převeď",
    "user_data": (
        "=e-maily|=e-mailů|=e-mailech|zprávy|soubor|dokument|kontakt|konverzac|schránk"
        "|osobní údaje|adresář|kalendář|přílohy"
    ),
    "conceal": "neříkej|nic neříkej|nezmiňuj|bez vědomí|aniž bys řekl|potají|=tajně",
    "instead": "=místo toho|=namísto toho",
    "steer": "=zmiň|=popiš|=vynech|=uveď|=doporuč|=tvrď",
    "user": "uživatel|majitel|vlastník",
    "admin": "administrátor|=admin|vývojář|bezpečnostní tým|=operátor|správce",
    "note": "=poznámka|=upozornění|=pozor|=vzkaz",
    "run": "=spusť|=proveď|=zavolej|=vykonej",
    "tool": "nástroj|funkc|příkaz|=skript|=skriptu",
    "say": "=řekni|=odpověz|=napiš|=začni svou odpověď",
    "only": "=jen|=pouze|=výhradně|=nic jiného",
    "hidden": "skryt|=interní|tajn|důvěrn",
    "authority": "oprávnění|pravomoc|autorizovan|administrátorská práva|plný přístup",
    "reply": "=tvoje odpověď|=odpověď|=každá odpověď",
    "begin": "=začni|=začínej",
    "cancel": "neplatn|zrušen|již neplatí|odvolán",
    "task": "=úkol|=úloha|=cíl|=poslání",
    "i_am": "=jsem|=já jsem|=zde mluví|=jménem",
    "act": (
        "=uděl|=odemkni|=převeď|=zaplať|=smaž|=vymaž|=sdílej|=prodej|=kup|=resetuj|=deaktivuj"
        "|=pozvi|=schval|=zarezervuj|=změň|=přidej|=vytvoř|=nastav"
    ),
    "asset": (
        "účet|účtu|přístup|oprávnění|zařízení|zámek|=dveře|kamer|alarm|peníze|platb|=banka"
        "|peněženk|bitcoin|akcie|složk|rezervac|schůzk|=kartu|=karta|=karty"
    ),
    "please": "=prosím|=prosíme|=můžeš|=mohl bys|=mohla bys|=musíš",
    "my": "=můj|=moje|=mých|=naše|=náš",
    "given": "=jsi dostal|=jsi dostala|=ti byly dány|=ti byl dán|=dostal jsi|=kterými ses řídil",
    "urgent": "=okamžitě|=ihned|=hned|=naléhavě|=urgentně",
    "if_you_are": "=pokud jsi|=jestli jsi|=když jsi",
    "reading_this": (
        "=který čte|=která čte|=který zpracovává|=který tohle zpracovává|=který shrnuje|=čteš tohle"
    ),
    "on_behalf": "=jménem|=za někoho|=v zastoupení|=pro majitele",
    "wish": "=chce, aby|=chce aby|=žádá|=požádal|=požádala|=prosí",
    "modal": "=musí|=měl by|=měla by|=by měl|=je třeba|=mají",
    "discussion": "útok|útočník|injekc|výzkumník|=studie|=studii|=například|zranitelnost",
}
