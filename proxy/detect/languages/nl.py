"""Dutch: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=False,
    negations="",
    whole_words=False,
    # "not", "no".
    limits=("niet", "geen"),
)

WORDS = {
    "ignore": "negeer|=negeren|vergeet|=omzeil|sla over",
    "previous": "=vorige|eerdere|bovenstaande|voorgaande|oorspronkelijk",
    "all": "=alle|=alles|=elke",
    "instructions": "*instructie|=regels|richtlijn|opdrachten|=beperkingen",
    "system": "systeem|systeemprompt",
    "prompt": "=prompt",
    "message": "=bericht",
    "reveal": "=toon|laat zien|herhaal|=onthul|=vertel|=kopieer|=plak|=plakken",
    "verbatim": "woord voor woord|=letterlijk|volledig",
    "your": "=jouw|=uw",
    "ai": "assistent|taalmodel|kunstmatige intelligentie|=model|=bot",
    "now": "vanaf nu|=voortaan|van nu af aan|je bent nu|jij bent nu",
    "role": "doe alsof|gedraag je als|speel de rol|=rol",
    "unrestricted": (
        "zonder beperkingen|zonder grenzen|zonder filter|zonder censuur|ongecensureerd|ongefilterd"
        "|geen regels"
    ),
    "no_refusal": "weiger nooit|niet weigeren|gehoorzaam|elk verzoek|elke vraag",
    "answer_with": "=antwoord|=zeg",
    "you_are": "=je bent|=jij bent|=u bent|=je heet|=jouw naam is|=stel je voor als",
    "persona": "identiteit|=personage|=modus",
    "disable": "schakel uit|zet uit|=verwijder|deactiveer",
    "safeguard": "veiligheid|=filter|=filters|censuur|beperkingen",
    "new": "=nieuwe|=echte",
    "secret": (
        "wachtwoord|api-sleutel|api sleutel|=token|inloggegevens|privésleutel|verificatiecode"
        "|creditcard"
    ),
    "send": "=stuur|=verstuur|=verzend|=doorsturen|stuur door|=deel|=overmaken|maak over",
    "user_data": (
        "e-mails|berichten|bestanden|documenten|contacten|gesprek|geschiedenis|gegevens"
        "|telefoonnummer|=adressen|=spreadsheet|rapport|contract|klantenlijst|salaris|facturen"
        "|afschriften|jaarrekening|btw-aangifte"
    ),
    "conceal": "vertel niet|zeg niet|vermeld niet|niet vermelden|=stiekem|heimelijk|in het geheim",
    "instead": "=in plaats daarvan|=daarentegen",
    "steer": "=vermeld|=beschrijf|=laat weg|=noem|=beweer|=raad aan",
    "user": "gebruiker|eigenaar",
    "admin": "beheerder|ontwikkelaar",
    "note": "=notitie|=opmerking|=let op|=waarschuwing",
    "run": "=voer uit|=roep aan",
    "tool": "=tool|=functie|=commando|=script",
    "say": "=zeg|antwoord|=schrijf|=begin je",
    "only": "=alleen|=enkel|verder niets|niets anders",
    "hidden": "verborgen|=interne|=geheime|vertrouwelijk",
    "authority": "bevoegdheid|geautoriseerd|rechten",
    "reply": "antwoord",
    "begin": "=begin|=start",
    "cancel": "geannuleerd|ongeldig|vervallen|ingetrokken|gelden niet meer",
    "task": "=taak|=doel|=opdracht",
    "i_am": "=ik ben|=hier is de|=namens",
    "act": (
        "verleen|geef toegang|ontgrendel|maak over|betaal|verwijder|=wis|=wissen|deel|stuur door"
        "|verkoop|koop|=reset|schakel uit|nodig uit|keur goed|=bestel|=annuleer|=zeg op|abonneer"
        "|voeg toe|=voeg|=wijzig|=verander|markeer|=bevestig|=registreer|=log in|betaal terug"
        "|pas toe"
    ),
    "asset": (
        "account|rekening|toegang|toestemming|apparaat|=deurslot|=het slot|=slimme slot|=deur"
        "|voordeur|camera|alarm|=geld|=tegoed|bank|portemonnee|bitcoin|aandelen|=mijn map|=de map"
        "|=deze map|=mappen|repository|vergadering|afspraak|boeking|reservering|vlucht|=hotel"
        "|winkelwagen|=kaart|betaalmethode|bankgegevens|terugbetaling|korting|cadeaukaart|=inbox"
        "|bezorgadres|abonnement|digid"
    ),
    "please": "=alsjeblieft|=alstublieft|=graag|=kun je|=zorg dat",
    "my": "=mijn|=onze|=ons",
    "given": "die je hebt gekregen|die je kreeg|die jou gegeven|die u hebt gekregen",
    "urgent": "=onmiddellijk|=meteen|=direct nu|=dringend",
    "if_you_are": "=als je|=als jij|=indien u|=als u",
    "reading_this": "=die dit leest|=dit leest|=die dit verwerkt|=die deze|=die dit|=dat deze",
    "on_behalf": "=namens|=voor iemand|=voor de rekeninghouder|=uit naam van",
    "wish": "=vraagt of|=vroeg of|=wil dat|=wil graag dat|=verzoekt",
    "modal": "=moet|=moeten|=zou moeten|=dient|=dienen",
    "discussion": "aanval|aanvaller|injectie|onderzoek|bijvoorbeeld|kwetsbaarhe",
}
