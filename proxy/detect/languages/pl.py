"""Polish: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=False,
    negations="nie|nigdy",
    whole_words=False,
    # "not", "never".
    limits=("nie", "nigdy"),
    # "and", "or": what joins two phrases.
    joining_words=("i",),
)

WORDS = {
    "ignore": "zignoruj|ignoruj|zapomnij|pomiń|nie zwracaj uwagi|zlekceważ",
    "previous": "poprzedni|wcześniejsz|powyższ|pierwotn|oryginaln",
    "all": "=wszystkie|=wszystko|=wszelkie",
    "instructions": "instrukcj|polece|zasad|reguł|wytyczn|ogranicze|rozkaz",
    "system": "=systemu|=systemowy|systemow",
    "prompt": "=prompt",
    "message": "wiadomoś",
    "reveal": "pokaż|ujawnij|powtórz|wypisz|wydrukuj|=podaj|=powiedz|zdradź|skopiuj|przepisz",
    "verbatim": "słowo w słowo|dosłownie|=w całości",
    "your": "=twoje|=twój|=twoja|=twoich|=swoje|=swój|=swoich|=wasze",
    "ai": (
        "asystent|sztuczna inteligencja|sztucznej inteligencji|model językowy|=model|=modelu|=bot"
        "|asystenci|asystencie"
    ),
    "now": "od teraz|od tej chwili|odtąd|jesteś teraz|teraz jesteś",
    "role": "udawaj|zachowuj się jak|wciel się|odegraj rolę|nową rolę|=rola|odgrywaj|działaj jako",
    "unrestricted": (
        "bez ograniczeń|bez cenzury|bez filtrów|bez zasad|nieograniczon|tryb dewelopera"
        "|bez żadnych ograniczeń"
    ),
    "no_refusal": "nie odmawiaj|nigdy nie odmawiaj|bez odmowy|każde polecenie|każdą prośbę",
    "answer_with": "=odpowiedz|=odpowiadaj|=powiedz",
    "you_are": "=jesteś|=będziesz|=nazywasz się|=twoje imię to|=przedstaw się jako",
    "persona": "tożsamoś|=postać|=postaci|=tryb|=trybie",
    "disable": "wyłącz|dezaktywuj|usuń|znieś",
    "safeguard": "bezpieczeństw|filtr|cenzur|ogranicze",
    "new": "=nowe|=nowa|=nowy|=prawdziwe",
    "secret": (
        "hasło|hasła|haseł|klucz api|klucz prywatny|klucz tajny|=token|dane logowania"
        "|kod weryfikacyjny|karta kredytowa|numer karty"
    ),
    "send": "wyślij|prześlij|przekaż|udostępnij|=wgraj|przelej|wklej",
    "user_data": (
        "e-maile|wiadomości|pliki|dokumenty|kontakty|rozmow|histori|=dane|numer telefonu"
        "|adres domowy|arkusz|raport|umow|listę klientów|lista klientów|cennik|wynagrodze|faktur"
        "|wyciąg"
    ),
    "conceal": "nie mów|nie wspominaj|nie informuj|potajemnie|po cichu|w tajemnicy",
    "instead": "=zamiast tego|=w zamian",
    "steer": "=wspomnij|=opisz|=pomiń|=zaznacz|=poleć|=twierdź",
    "user": "użytkowni|właściciel",
    "admin": "administrator|programist|deweloper",
    "note": "=uwaga|notatka|komunikat|przypomnienie|ostrzeżenie",
    "run": "uruchom|wykonaj|wywołaj",
    "tool": "narzędzi|funkcj|polecenie|skrypt",
    "say": "=powiedz|odpowiedz|=napisz|zacznij",
    "only": "=tylko|=jedynie|nic więcej|nic innego",
    "hidden": "ukryt|wewnętrzn|tajn|poufn",
    "authority": "uprawnie|autoryzowan|upoważnie",
    "reply": "odpowied",
    "begin": "zacznij|rozpocznij",
    "cancel": "anulowan|unieważnion|nieważn|przestają obowiązywać",
    "task": "zadanie|=cel|misj",
    "i_am": "=jestem|=mówię jako|=jako administrator",
    "act": (
        "przyznaj|nadaj dostęp|odblokuj|przelej|zapłać|usuń|udostępnij|przekaż|sprzedaj|kup"
        "|zresetuj|wyłącz|zaproś|zatwierdź|zarezerwuj|=zamów|=anuluj|=odwołaj|zasubskrybuj|=dodaj"
        "|=zmień|zaktualizuj|=oznacz|=potwierdź|zarejestruj|=zaloguj|=zwróć"
    ),
    "asset": (
        "konto|dostęp|uprawnie|urządzeni|zamek|drzwi|kamer|alarm|pieniądze|środki|bank|portfel"
        "|bitcoin|akcje|folder|repozytori|spotkani|rezerwacj|=loty|hotel|koszyk|=karta|=karty"
        "|=kartę|metoda płatności|dane bankowe|=zwrot|rabat|karta podarunkowa|skrzynk"
        "|adres dostawy|subskrypcj|abonament"
    ),
    "please": "=proszę|=prosze|=możesz|koniecznie|=musisz",
    "my": "=mój|=moja|=moje|=mojego|=mojej|=moich|=nasz",
    "given": "które otrzymałeś|które otrzymałaś|ci dano|które dostałeś",
    "urgent": "natychmiast|=pilnie|=od razu",
    "if_you_are": "=jeśli jesteś|=jeżeli jesteś|=jeśli pan jest",
    "reading_this": (
        "=czytający to|=czytasz to|=przetwarzający|=streszczającego|=czytający|=który czyta"
        "|=która czyta|=obsługujący"
    ),
    "on_behalf": "=w imieniu|=za kogoś|=dla właściciela",
    "wish": (
        "=prosi, aby|=prosi aby|=poprosił|=poprosiła|=chce, aby|=chce aby|=chce, żeby|=chce żeby"
    ),
    "modal": "=musi|=muszą|=powinien|=powinna|=powinny|=należy",
    "discussion": "atak|atakując|wstrzykiwan|badani|na przykład|obron|podatnoś",
}
