"""Swedish: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=False,
    negations="",
    whole_words=False,
)

WORDS = {
    "ignore": (
        "ignorera|=strunta i|=bortse från|=glöm|glöm bort|=struntar i|=bry dig inte om|=följ inte"
    ),
    "previous": "tidigare|föregående|=ovan|=ovanstående|ursprunglig|hittills",
    "all": "=alla|=allt|=samtliga|=varje|=hela",
    "instructions": (
        "instruktion|=regler|=reglerna|riktlinje|direktiv|=kommandon|begränsning|anvisning"
    ),
    "system": "=system|=systemet|systeminstruktion|systemmeddelande",
    "prompt": "=prompt|=prompten|systemprompt",
    "message": "meddelande",
    "reveal": (
        "=visa|=skriv ut|=avslöja|=upprepa|=återge|=kopiera|=klistra in|=berätta|=dela med dig av"
    ),
    "verbatim": "ordagrant|ord för ord|=i sin helhet|=fullständig|=hela texten",
    "your": "=din|=ditt|=dina|=er|=ert|=era",
    "ai": "=ai|ai-assistent|assistent|språkmodell|=bot|=boten|chattbot|=modell|=modellen",
    "now": "från och med nu|=från nu|hädanefter|=du är nu|=nu är du",
    "role": "=agera som|=låtsas|=rollspel|=din nya roll|=spela rollen|=bete dig som",
    "unrestricted": (
        "utan begränsningar|utan några regler|utan regler|inga regler|obegränsad|ocensurerad"
        "|utan filter|utvecklarläge"
    ),
    "no_refusal": "vägra aldrig|vägrar aldrig|säg aldrig nej|varje begäran|alla förfrågningar",
    "answer_with": "=svara|=svara med|=säg|=skriv bara",
    "you_are": "=du är|=du blir|=ditt namn är|=du heter",
    "persona": "identitet|=persona|=karaktär|=läge",
    "disable": "=stäng av|inaktivera|=ta bort|=slå av",
    "safeguard": "säkerhet|filter|censur|begränsning",
    "new": "=nya|=nytt|=verkliga|=riktiga",
    "secret": (
        "lösenord|api-nyckel|=token|privat nyckel|inloggningsuppgifter|kreditkort|engångskod"
        "|säkerhetskod"
    ),
    "send": "=skicka|=skickar|vidarebefordra|=ladda upp|=dela|=mejla|=överför",
    "user_data": (
        "mejl|e-post|meddelanden|filer|dokument|kontakter|konversation|inkorg|personuppgifter"
        "|adressbok|kalender|bilagor"
    ),
    "conceal": "säg inget|berätta inte|nämn inte|utan att berätta|utan att säga|=i hemlighet|=tyst",
    "instead": "=istället|=i stället",
    "steer": "=nämn|=beskriv|=utelämna|=hävda|=rekommendera",
    "user": "användar|ägaren|=ägare",
    "admin": "administratör|=admin|utvecklare|säkerhetsteam|=operatör",
    "note": "=notering|=obs|=meddelande till|=påminnelse|=varning",
    "run": "=kör|=exekvera|=anropa|=starta",
    "tool": "verktyg|=funktion|=kommando|=skript",
    "say": "=säg|=svara|=skriv|=börja ditt svar",
    "only": "=bara|=endast|=enbart|=inget annat",
    "hidden": "dold|dolda|=interna|hemlig|konfidentiell",
    "authority": "behörighet|befogenhet|auktoriserad|administratörsrättigheter|fullständig åtkomst",
    "reply": "=ditt svar|=svaret|=varje svar",
    "begin": "=börja|=inled",
    "cancel": "ogiltig|upphävd|gäller inte längre|=återkallad",
    "task": "=uppgift|=uppgiften|=mål|=uppdrag",
    "i_am": "=jag är|=här talar|=för räkning",
    "act": (
        "=bevilja|=ge åtkomst|=lås upp|=överför|=betala|=radera|=ta bort|=dela|=sälj|=köp"
        "|=återställ|=inaktivera|=bjud in|=godkänn|=boka|=ändra|=lägg till|=byt ut"
    ),
    "asset": (
        "=konto|=kontot|åtkomst|behörighet|=enhet|=låset|=dörr|kamera|larm|=pengar|betalning|=bank"
        "|plånbok|bitcoin|=aktier|mapp|bankgiro|=bokning|=möte|kort"
    ),
    "please": "=snälla|=vänligen|=kan du|=skulle du kunna|=du måste|=var god",
    "my": "=mitt|=mina|=vår|=vårt|=våra",
    "given": "=du fick|=du har fått|=som du fått|=givits dig|=du fått höra",
    "urgent": "=omedelbart|=genast|=direkt nu|=brådskande|=med en gång",
    "if_you_are": "=om du är|=eftersom du är|=när du är",
    "reading_this": (
        "=som läser|=läser den här|=som bearbetar|=som sammanfattar|=som hanterar|=som går igenom"
    ),
    "on_behalf": "=för någons räkning|=åt någon|=för kontoinnehavaren|=på uppdrag av",
    "wish": "=ber att|=bad att|=vill att|=önskar att",
    "modal": "=ska|=skall|=måste|=bör",
    "discussion": (
        "=attacken|=attackerna|angripare|injektion|forskare|=studien|=till exempel|sårbarhet"
    ),
}
