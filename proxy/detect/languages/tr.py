"""Turkish: its words for each concept and how its grammar is read.

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
        "yok say|yoksay|unut|görmezden gel|dikkate alma|geçersiz kıl|geçersiz say|ihmal et|=atla"
    ),
    "previous": "önceki|yukarıdaki|evvelki|orijinal",
    "all": "=tüm|=bütün|=hepsi|=her şey|tümünü",
    "instructions": (
        "talimat|kural|komut|yönerge|kısıtlama|=emir|=emirler|=emirleri|=emirlerini|direktif"
    ),
    "system": "=sistem|sistemin|sistemi",
    "prompt": "istem|=prompt",
    "message": "mesaj",
    "reveal": "göster|açıkla|tekrarla|yazdır|ifşa et|=söyle|sızdır|=yaz|kopyala",
    "verbatim": "kelimesi kelimesine|olduğu gibi|aynen|harfiyen|eksiksiz",
    "your": "=senin|talimatlarını|kurallarını|istemini|yönergelerini",
    "ai": "asistan|yapay zeka|yapay zekâ|dil modeli|=model|=modeli|=bot",
    "now": "bundan sonra|şu andan itibaren|bundan böyle|sen artık|sen şimdi|artık sen",
    "role": "gibi davran|rolünü|rol yap|=rol|taklit et|canlandır|=karakter",
    "unrestricted": (
        "kısıtlamasız|kısıtlama olmadan|sınırsız|sansürsüz|filtresiz|kuralsız|kural tanımayan"
        "|geliştirici modu|sınırlama olmadan|kısıtlamaları kaldır|kısıtlamalarını kaldır"
        "|kısıtlaması olmayan|kısıtlaması yok|hiçbir kuralı|sınırı yok"
    ),
    "no_refusal": (
        "reddetme|reddedemezsin|reddetmeden|itaat et|koşulsuz|her isteği|her türlü içeriği"
    ),
    "answer_with": "=yanıt ver|=cevap ver|=söyle|=de ki",
    "you_are": "=sensin|=sen bir|=senin adın|=adın|=kendini tanıt",
    "persona": "kimlik|karakter|=modu|=modunda",
    "disable": "kaldır|kapat|devre dışı",
    "safeguard": "güvenlik|filtre|sansür|kısıtlama",
    "new": "=yeni|=gerçek",
    "secret": (
        "şifre|parola|api anahtar|=token|kimlik bilgileri|özel anahtar|gizli anahtar"
        "|doğrulama kodu|kredi kartı"
    ),
    "send": "gönder|ilet|yolla|=aktar|havale et|paylaş|=yönlendir|=yönlendirin",
    "user_data": (
        "e-posta|mesaj|dosya|belge|kişiler|konuşma|geçmiş|=veri|=verileri|=verilerini|=verilerimi"
        "|=verilerim|telefon numara|ev adres|=tablo|rapor|sözleşme|müşteri listesi|fiyat listesi"
        "|maaş|fatura|fiyat teklif"
    ),
    "conceal": "söyleme|bahsetme|haber verme|gizlice|sessizce|fark ettirmeden",
    "instead": "=bunun yerine|=onun yerine",
    "steer": "=belirt|=bahset|=olarak tanımla|=dışarıda bırak|=öner",
    "user": "kullanıcı|sahibi",
    "admin": "yönetici|admin|geliştirici",
    "note": "=notu|=uyarı|=dikkat|=bildirim|hatırlatma",
    "run": "çalıştır|yürüt|çağır",
    "tool": "araç|aracı|fonksiyon|komut|betik",
    "say": "söyle|yanıt ver|cevap ver|=yaz|ile başla|cevabına|yanıtına",
    "only": "=sadece|=yalnızca|başka hiçbir|başka bir şey",
    "hidden": "gizli|=iç|dahili|saklı",
    "authority": "yetki|yetkili|ayrıcalık",
    "reply": "cevab|yanıt",
    "begin": "başla",
    "cancel": "iptal|geçersiz|kaldırıldı|artık geçerli değil",
    "task": "görev|amacın|hedef",
    "i_am": "olarak konuşuyorum|ben bir|ben senin|olarak yazıyorum",
    "act": (
        "erişim ver|yetki ver|=verin|kilidini aç|havale et|aktar|=öde|=sil|=silin|paylaş|ilet|=sat"
        "|=satın|satın al|sıfırla|devre dışı bırak|davet et|onayla|rezervasyon yap|=sipariş ver"
        "|=iptal et|abone ol|=ekle|=ekleyin|=değiştir|=değiştirin|=güncelle|=güncelleyin|=işaretle"
        "|=kaydet|kayıt ol|=giriş yap|=iade et"
    ),
    "asset": (
        "hesab|erişim|yetki|izin|cihaz|kilit|kilid|=kapı|=kapıyı|=kapının|kamera|alarm|=parayı"
        "|=paramı|=parasını|para transferi|=fon|=fonu|=fonları|banka|cüzdan|bitcoin|hisse|klasör"
        "|=depo|=deposu|toplantı|randevu|rezervasyon|uçuş|otel|sepet|=kart|=kartı|=kartın"
        "|ödeme yöntemi|banka bilgileri|=iade|indirim|hediye kartı|gelen kutusu|teslimat adresi"
        "|abonelik|sipariş"
    ),
    "please": "lütfen|mutlaka|rica ederim",
    "my": "=benim|hesabım|kilidim|dosyalarım",
    "given": "sana verilen|size verilen|aldığın talimat",
    "urgent": "=hemen|derhal|acilen|=şimdi",
    "if_you_are": "eğer sen|=eğer bir|=sen bir",
    "reading_this": "okuyan|işleyen|özetleyen|yöneten|inceleyen|derleyen",
    "on_behalf": "=adına|=yerine|=hesap sahibi için",
    "wish": "istedi|istiyor|talep etti|rica etti",
    "modal": "malı|meli|zorunda",
    "discussion": "saldırı|saldırgan|enjeksiyon|araştırma|örneğin|güvenlik açığı|zafiyet",
}
