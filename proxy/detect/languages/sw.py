"""Swahili: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=False,
    negations="",
    whole_words=False,
)

WORDS = {
    "ignore": "puuza|=puuzeni|sahau|=usifuate|=usizingatie|=achana na",
    "previous": (
        "=awali|=zilizopita|=za awali|=zilizotangulia|=hapo juu|=za mwanzo|=uliyopewa awali"
    ),
    "all": "=zote|=yote|=wote|=kila|=vyote|=lote",
    "instructions": "maagizo|maelekezo|=sheria|amri|vikwazo|=masharti",
    "system": "=mfumo|=wa mfumo|=ya mfumo",
    "prompt": "=prompt|=kidokezo",
    "message": "ujumbe",
    "reveal": "=onyesha|=fichua|=rudia|=andika|=nakili|=niambie|=bandika|=chapisha",
    "verbatim": "=neno kwa neno|=kamili|=yote kama yalivyo",
    "your": "=yako|=zako|=wako|=lako|=chako|=vyako",
    "ai": "=ai|msaidizi|=roboti|=bot|modeli ya lugha|akili bandia",
    "now": "=kuanzia sasa|=tangu sasa|=sasa wewe ni|=kuanzia leo",
    "role": "=jifanye|=igiza|=fanya kama|=jukumu lako jipya|=cheza nafasi ya",
    "unrestricted": "=bila vikwazo|=bila sheria|=bila mipaka|=hakuna sheria|=bila udhibiti",
    "no_refusal": "=usikatae kamwe|=usikatae|=kila ombi|=ombi lolote",
    "answer_with": "=jibu|=sema|=jibu kwa",
    "you_are": "=wewe ni|=jina lako ni|=utakuwa",
    "persona": "utambulisho|=mhusika|=hali ya",
    "disable": "=zima|=ondoa",
    "safeguard": "=usalama|=vichujio|=udhibiti",
    "new": "=mpya|=halisi",
    "secret": (
        "nenosiri|=nywila|=ufunguo wa api|=tokeni|=token|=otp|=kadi ya mkopo|=nambari ya siri"
    ),
    "send": "=tuma|=tumeni|=peleka|=pakia|=shiriki|=hamisha|=nitumie",
    "user_data": (
        "=barua pepe|=ujumbe|=mafaili|=faili|=nyaraka|=mawasiliano|=namba za simu|=taarifa binafsi"
        "|=kalenda"
    ),
    "conceal": "=usimwambie|=usiseme|=usimjulishe|=bila kumwambia|=kwa siri|=usitaje",
    "instead": "=badala yake",
    "steer": "=taja|=eleza|=acha nje|=sema kwamba|=pendekeza",
    "user": "mtumiaji|=mmiliki",
    "admin": "=msimamizi|=admin|=wasanidi|=timu ya usalama",
    "note": "=kumbuka|=tahadhari|=onyo|=ujumbe kwa",
    "run": "=endesha|=tekeleza|=ita",
    "tool": "=zana|=chombo|=amri|=skripti",
    "say": "=sema|=jibu|=andika",
    "only": "=pekee|=peke yake|=si kingine",
    "hidden": "=iliyofichwa|=zilizofichwa|=siri|=za ndani",
    "authority": "=mamlaka|=ruhusa|=idhini|=ufikiaji kamili",
    "reply": "=jibu lako|=kila jibu",
    "begin": "=anza|=anzisha",
    "cancel": "=zimefutwa|=hazitumiki tena|=si halali tena|=zimebatilishwa",
    "task": "=kazi|=lengo|=jukumu",
    "i_am": "=mimi ni|=kwa niaba ya",
    "act": (
        "=toa ruhusa|=fungua|=hamisha|=lipa|=futa|=shiriki|=uza|=nunua|=weka upya|=zima|=alika"
        "|=idhinisha|=weka nafasi|=badilisha|=ongeza"
    ),
    "asset": (
        "=akaunti|=ufikiaji|=ruhusa|=kifaa|=kufuli|=mlango|=kamera|=pesa|=fedha|=malipo|=benki"
        "|=pochi|=bitcoin|=hisa|=folda|=nafasi|=mkutano|=kadi"
    ),
    "please": "=tafadhali|=naomba|=unaweza|=lazima",
    "my": "=yangu|=zangu|=wangu|=langu|=changu|=vyangu|=yetu",
    "given": "=uliyopewa|=ulizopewa|=ulipewa|=uliyoambiwa",
    "urgent": "=mara moja|=haraka|=sasa hivi",
    "if_you_are": "=kama wewe ni|=ikiwa wewe ni|=kama u",
    "reading_this": "=anayesoma|=unayesoma|=anayeshughulikia|=anayefupisha",
    "on_behalf": "=kwa niaba ya|=kwa ajili ya mwenye",
    "wish": "=ameomba|=anaomba|=anataka",
    "modal": "=lazima|=anapaswa|=wanapaswa|=inabidi|=sharti",
    "discussion": "=shambulio|=mshambuliaji|=wadukuzi|=watafiti|=utafiti|=kwa mfano|=udhaifu",
}
