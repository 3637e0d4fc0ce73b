"""Italian: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=True,
    negations="non|mai",
    whole_words=False,
    # Articles, possessives and "of": what may stand inside one phrase.
    small_words=(
        "il|i|gli|lo|la|le|un|una|di|del|della|dei|delle|degli|tuo|tua|tuoi|tue|suo|sua|suoi|sue"
        "|questi|queste"
    ),
    # "and", "or": what joins two phrases.
    joining_words=("e", "o"),
)

WORDS = {
    "ignore": "ignor|dimentic|trascura|non tenere conto|non considerare|tralascia",
    "previous": "precedent|=sopra|anterior|=original|=originali|=iniziali",
    "all": "=tutte|=tutti|=tutto|=qualsiasi|=ogni",
    "instructions": "istruzion|=regole|direttiv|=ordini|=restrizioni|linee guida|vincoli",
    "system": "=sistema",
    "prompt": "=prompt",
    "message": "messaggio",
    "reveal": (
        "rivel|mostr|=ripeti|ripet|stamp|=dimmi|visualizz|divulg|=copia|riproduci|=riporta"
        "|=riportare|=trascrivi"
    ),
    "verbatim": "parola per parola|=testualmente|=letteralmente|integralmente",
    "your": "=tuo|=tua|=tuoi|=le tue|=delle tue|=alle tue|=nelle tue|=vostro|=vostre",
    "ai": "assistente|=ia|modello linguistico|intelligenza artificiale|=modello|=bot",
    "now": "d'ora in poi|da ora in poi|da adesso|ora sei|adesso sei|d'ora in avanti",
    "role": (
        "comportati come|agisci come|=fingi|=fingere|interpreta il ruolo|=ruolo|=impersona"
        "|gioco di ruolo"
    ),
    "unrestricted": (
        "senza restrizioni|senza limiti|senza filtri|senza censura|senza regole"
        "|modalità sviluppatore|nessuna restrizione"
    ),
    "no_refusal": (
        "non rifiutare|mai rifiutare|non rifiutarti|=obbedisci|qualsiasi richiesta|ogni richiesta"
    ),
    "answer_with": "=rispondi|=rispondete|=risponda",
    "you_are": "=sei|=tu sei|=sarai|=ti chiami|=il tuo nome è|=presentati come",
    "persona": "=identità|=personaggio|=modalità",
    "disable": "disattiva|disabilita|rimuovi|togli",
    "safeguard": "sicurezza|=filtro|=filtri|censura|restrizioni",
    "new": "=nuove|=nuovo|=nuova|=nuovi|=vere",
    "secret": (
        "=password|chiave api|chiave privata|chiave segreta|credenziali|=token|codice di verifica"
        "|carta di credito"
    ),
    "send": "=invia|=inviare|=manda|=mandare|inoltra|condividi|=trasferisci|=bonifica",
    "user_data": (
        "=email|messaggi|documenti|contatti|conversazion|cronologia|=dati|numero di telefono"
        "|=indirizzi|data di nascita|foglio di calcolo|rapporto|contratto|elenco clienti"
        "|busta paga|fatture|storico fatture|estratti conto"
    ),
    "conceal": (
        "non dire|non dirlo|non menzionare|non informare|segretamente|di nascosto|in segreto"
        "|senza avvisare"
    ),
    "instead": "=invece|=al suo posto",
    "steer": "=menziona|=descrivi|=ometti|=riassumi come|=raccomanda|=consiglia|=afferma che",
    "user": "utente|proprietario",
    "admin": "amministrator|sviluppator",
    "note": "=nota|=avviso|=attenzione|promemoria",
    "run": "esegui|=lancia|=chiama|invoca",
    "tool": "strumento|funzione|comando|=script",
    "say": "rispondi|=scrivi|=stampa|inizia la tua",
    "only": "=solo|=soltanto|=unicamente|nient'altro|nulla di più",
    "hidden": "nascost|=interne|=interni|=segrete|=segreti|riservat",
    "authority": "autorità|autorizzat|privilegi",
    "reply": "risposta|tua risposta",
    "begin": "inizia|comincia",
    "cancel": "annullat|revocat|non valgono più|non si applicano più",
    "task": "=compito|=obiettivo|=missione",
    "i_am": "=sono|=parlo come|=in qualità di",
    "act": (
        "concedi|sblocca|trasferisci|=paga|=bonifica|elimina|cancella|condividi|inoltra|vendi"
        "|compra|reimposta|disattiva|invita|approva|=prenota|=ordina|=annulla|disdici|=iscrivi"
        "|aggiungi|=modifica|=cambia|=aggiorna|=segna|=conferma|=registra|=rimborsa|=applica"
    ),
    "asset": (
        "account|=conto|accesso|permess|dispositiv|serratura|=porta|telecamer|allarme|denaro|soldi"
        "|fondi|banca|portafoglio|bitcoin|azioni|cartella|repository|riunione|appuntamento"
        "|prenotazione|=volo|hotel|carrello|=carta|metodo di pagamento|coordinate bancarie"
        "|rimborso|=sconto|buono regalo|casella|indirizzo di consegna|abbonamento"
    ),
    "please": "per favore|=puoi|=potresti|assicurati di|=devi",
    "my": "=mio|=la mia|=della mia|=nella mia|=alla mia|=dalla mia|=sulla mia|=miei|=mie|=nostro",
    "given": "che ti sono state date|che hai ricevuto|ti hanno dato|che ti hanno dato",
    "urgent": "=subito|immediatamente|=urgentemente|al più presto",
    "if_you_are": "=se sei|=se lei è|=se tu sei",
    "reading_this": (
        "=che legge questo|=leggendo questo|=che elabora|=che legge|=che leggi|=che gestisce"
        "|=che riassume|=che legga"
    ),
    "on_behalf": "=per conto di|=a nome di|=per il titolare|=per qualcuno",
    "wish": "=vuole che|=chiede che|=ha chiesto che|=desidera che|=richiede che",
    "modal": "=deve|=devono|=dovrà|=dovranno|=dovrebbe|=dovrebbero",
    "frame": "=chiedere|=chiede|=chiedono|=chiesto|=fa|=convincere|=convince",
    "discussion": "attacc|=iniezione|ricerca|ricercatori|ad esempio|difesa|vulnerabilità",
}
