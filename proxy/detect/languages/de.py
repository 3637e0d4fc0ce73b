"""German: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=False,
    negations="",
    whole_words=False,
    # "not", "no".
    limits=("nicht", "kein"),
    # Reset ("Passwort zurücksetzen").
    secret_processes_after=("zurücksetz",),
    # "and", "or": what joins two phrases.
    joining_words=("und", "oder"),
)

WORDS = {
    "ignore": "ignorier|vergiss|vergessen|missacht|außer acht|außer kraft|=umgehe|=umgehen|übergeh",
    "previous": (
        "vorherig|vorig|=obigen|=obige|=oben|bisherig|vorangegangen|ursprünglich|vorangehend"
    ),
    "all": "=alle|=allen|=alles|=sämtliche",
    "instructions": (
        "*anweisung|=regeln|*richtlinie|vorgabe|befehl|*einschränkung|beschränkung|instruktion"
        "|vorschrift"
    ),
    "system": "=system|systemanweisung|systemnachricht|=system-eingabeaufforderung|systemhinweis",
    "prompt": "=prompt|eingabeaufforderung|systemprompt|=system-prompt",
    "message": "=nachricht",
    "reveal": (
        "=zeig|=zeige|=zeigen|=gib|=verrate|verrat|wiederhol|=nenne|offenbar|=drucke|enthüll"
        "|ausgeb|preisgeb|=kopiere|=gib wieder"
    ),
    "verbatim": "wörtlich|wort für wort|vollständig|im wortlaut",
    "your": "=dein|=deine|=deinen|=deiner|=deines|=eure|=euren",
    "ai": "=ki|assistent|sprachmodell|künstliche intelligenz|=modell|sprachmodelle|=bot",
    "now": "ab jetzt|ab sofort|von nun an|=fortan|du bist jetzt|du bist nun|ab heute",
    "role": (
        "tu so|tue so|spiele die rolle|=rolle|rollenspiel|verhalte dich wie|=agiere als"
        "|gib dich als"
    ),
    "unrestricted": (
        "ohne einschränkung|uneingeschränkt|ohne zensur|unzensiert|keine regeln|ohne regeln"
        "|ohne filter|entwicklermodus|keine einschränkungen|ohne jede einschränkung"
    ),
    "no_refusal": (
        "niemals ablehnen|lehne nie|nicht ablehnen|verweigere nie|gehorche|jede anfrage"
        "|beantworte alles"
    ),
    "answer_with": "=antworte|=antworten sie|=sag|=sage",
    "you_are": "=du bist|=du wirst|=dein name ist|=du heißt|=stell dich als",
    "persona": "=identität|=persona|=modus",
    "disable": "deaktivier|=schalte|abschalt|entfern|heb auf|aufheben",
    "safeguard": "sicherheit|*filter|zensur|einschränkung",
    "new": "=neue|=neuen|=neues|=wahre|=echte",
    "secret": (
        "*passwort|*kennwort|zugangsdaten|api-schlüssel|api schlüssel|=token|privater schlüssel"
        "|geheimer schlüssel|anmeldedaten|zugangscode|kreditkart|geheime schlüssel"
    ),
    "send": (
        "=sende|=senden|=schicke|=schick|=schicken|weiterleit|=leite|hochlad|übermittl|übermittel"
        "|=überweise|=überweisen"
    ),
    "user_data": (
        "e-mails|=mails|nachrichten|dateien|dokumente|kontakte|gesprächsverlauf|verlauf|=daten"
        "|persönliche daten|*daten|telefonnummer|=adressen|geburtsdatum|tabelle|bericht|vertrag"
        "|verträge|kundenliste|preisliste|gehalt|gehälter|gehaltsabrechnung|rechnungen"
        "|kontoauszüge|ausweis"
    ),
    "conceal": (
        "sag nicht|sage nicht|erwähne nicht|nicht erwähnen|=heimlich|verschweige|informiere nicht"
        "|unbemerkt|stillschweigend"
    ),
    "instead": "=stattdessen|=statt dessen|=vielmehr",
    "steer": "=erwähne|=beschreibe|=lass weg|=lasse weg|=weglassen|=empfiehl|=behaupte|=stelle dar",
    "user": "benutzer|nutzer|anwender|besitzer",
    "admin": "administrator|=admin|entwickler|sicherheitsteam",
    "note": "=hinweis|*hinweis|=notiz|=achtung|=mitteilung|=warnung",
    "run": "=führe|ausführ|=rufe|aufruf|=starte",
    "tool": "=werkzeug|=tool|=funktion|=befehl|=skript|=script",
    "say": "=sag|=sage|antworte|=schreibe|=schreib|=gib aus|beginne deine",
    "only": "=nur|=ausschließlich|sonst nichts|nichts anderes",
    "hidden": (
        "versteckt|verborgen|=intern|=interne|=internen|=interner|=internes|geheim|vertraulich"
    ),
    "authority": "berechtigung|befugnis|autorisiert|vollmacht|privilegien",
    "reply": "=antwort|deine antwort|jede antwort",
    "begin": "beginne|=starte|fang an",
    "cancel": (
        "aufgehoben|ungültig|widerrufen|gelten nicht mehr|gelten ab sofort nicht mehr"
        "|nicht länger gültig|außer kraft|storniert"
    ),
    "task": "=aufgabe|=ziel|=auftrag",
    "i_am": "=ich bin|=hier spricht|=spreche als",
    "act": (
        "gewähre|erteile|entsperre|überweise|=zahle|bezahle|lösche|teile|leite weiter|verkaufe"
        "|kaufe|zurücksetzen|deaktiviere|lade ein|genehmige|=buche|=bestelle|storniere|=sage ab"
        "|abonniere|=füge|aktualisiere|=setze|markiere|bestätige|registriere|=melde|erstatte"
        "|=trage|=buchen sie|=bestellen sie|=ändern sie|=melden sie|=bestätigen sie|=löschen sie"
    ),
    "asset": (
        "konto|zugang|zugriff|berechtigung|gerät|schloss|=tür|haustür|kamera|alarmanlage|=geld"
        "|guthaben|bank|wallet|bitcoin|aktien|ordner|repository|=termin|=termine|besprechung"
        "|=meeting|buchung|reservierung|=flug|hotel|warenkorb|=karte|zahlungsmethode"
        "|bankverbindung|bankdaten|erstattung|rabatt|gutschein|postfach|lieferadresse|=abo"
        "|abonnement|mitgliedschaft"
    ),
    "please": "=bitte|=kannst du|=könnten sie|=können sie|stelle sicher|=du musst",
    "my": "=mein|=meine|=meinen|=meinem|=meiner|=meines|=unser|=unsere",
    "given": "du erhalten hast|dir gegeben|man dir gegeben|sie erhalten haben|ihnen gegeben",
    "urgent": "=sofort|umgehend|unverzüglich|=dringend",
    "if_you_are": "=wenn du|=falls du|=wenn sie|=falls sie|=da du",
    "reading_this": (
        "=das liest|=dies liest|=diesen text liest|=diese e-mail liest|=diese nachricht liest"
        "|=verarbeitet|=die dieses|=der dieses|=die diese|=die diesen|=der diese|=der diesen"
        "|=das dieses|=wer diese|=wer dieses"
    ),
    "on_behalf": (
        "=im namen|=im auftrag|=für jemanden|=für den kontoinhaber|=für die kontoinhaberin"
    ),
    "wish": "=möchte, dass|=möchte dass|=bittet|=bat|=wünscht|=verlangt",
    "modal": "=soll|=sollte|=sollten|=sollen|=muss|=müssen|=hat zu|=haben zu",
    "discussion": (
        "angriff|angreifer|injektion|=studie|=studien|forscher|zum beispiel|abwehr|schwachstelle"
        "|sicherheitslücke"
    ),
}
