"""Indonesian: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=False,
    negations="",
    whole_words=False,
)

WORDS = {
    "ignore": "abaikan|lupakan|jangan hiraukan|jangan ikuti|jangan patuhi",
    "previous": "sebelumnya|di atas|terdahulu",
    "all": "=semua|=seluruh|=segala",
    "instructions": "instruksi|=perintah|aturan|=petunjuk|arahan|batasan|pedoman",
    "system": "=sistem",
    "prompt": "=prompt",
    "message": "=pesan",
    "reveal": "tampilkan|tunjukkan|ungkapkan|=ulangi|cetak|beritahu|=sebutkan|bocorkan|=salin",
    "verbatim": "kata demi kata|kata per kata|apa adanya|secara lengkap",
    "your": "=anda|=kamu|=milikmu",
    "ai": "asisten|model bahasa|kecerdasan buatan|=model|=bot",
    "now": "mulai sekarang|mulai saat ini|kamu sekarang|anda sekarang|mulai dari sekarang",
    "role": "bertindak sebagai|berpura-pura|berperan|peran sebagai|=jadilah",
    "unrestricted": (
        "tanpa batasan|tanpa batas|tanpa sensor|tanpa filter|tanpa aturan|mode pengembang"
        "|tidak ada batasan"
    ),
    "no_refusal": (
        "jangan menolak|jangan pernah menolak|tidak boleh menolak|=patuhi|semua permintaan"
        "|setiap permintaan"
    ),
    "answer_with": "=jawab|=balas|=katakan",
    "you_are": "=kamu adalah|=anda adalah|=kamu sekarang|=namamu|=nama kamu",
    "persona": "identitas|=karakter|=mode",
    "disable": "nonaktifkan|matikan|hapus|hilangkan",
    "safeguard": "keamanan|=filter|sensor|batasan",
    "new": "=baru",
    "secret": (
        "kata sandi|=sandi|kunci api|=token|kredensial|kunci privat|kode otp|=otp|kartu kredit"
    ),
    "send": "=kirim|=kirimkan|=teruskan|unggah|=bagikan|=transfer|=transferkan",
    "user_data": (
        "=email|pesan|berkas|dokumen|kontak|percakapan|riwayat|data pribadi|=data saya"
        "|nomor telepon|alamat rumah|=spreadsheet|laporan|kontrak|daftar pelanggan|=gaji|faktur"
    ),
    "conceal": (
        "jangan beritahu|jangan beri tahu|jangan sebutkan|diam-diam|secara rahasia"
        "|tanpa memberi tahu|tanpa sepengetahuan"
    ),
    "instead": "=sebagai gantinya|=melainkan",
    "steer": "=sebutkan|=nyatakan|=gambarkan|=hilangkan|=rekomendasikan",
    "user": "pengguna|pemilik",
    "admin": "=admin|administrator|pengembang|tim keamanan",
    "note": "=catatan|pemberitahuan|=perhatian|peringatan",
    "run": "jalankan|eksekusi|panggil",
    "tool": "=alat|=fungsi|=perintah|=skrip",
    "say": "katakan|jawab|=tulis|=tuliskan|balas|mulailah",
    "only": "=hanya|=saja|tidak ada yang lain",
    "hidden": "tersembunyi|=internal|=rahasia",
    "authority": "wewenang|otoritas|hak akses|diizinkan",
    "reply": "jawaban|tanggapan|balasan",
    "begin": "mulai|awali",
    "cancel": "dibatalkan|tidak berlaku|dicabut",
    "task": "=tugas|=tujuan|=misi",
    "i_am": "=saya adalah|=saya|=aku",
    "act": (
        "berikan akses|buka kunci|=transfer|bayar|hapus|bagikan|teruskan|jual|=beli|=belikan"
        "|=belilah|atur ulang|nonaktifkan|undang|setujui|pesankan|batalkan|berlangganan|tambahkan"
        "|=ubah|=ganti|perbarui|tandai|konfirmasi|daftarkan|masuk ke|kembalikan dana"
    ),
    "asset": (
        "akun|rekening|akses|izin|perangkat|kunci pintu|=pintu|kamera|uang|=dana saya|=dana anda"
        "|=dana ke|=dana di|bank|dompet|bitcoin|saham|folder|repositori|rapat|janji temu|pemesanan"
        "|reservasi|penerbangan|=hotel|keranjang|=kartu|metode pembayaran|data bank"
        "|pengembalian dana|diskon|kartu hadiah|kotak masuk|alamat pengiriman|langganan|pesanan"
    ),
    "please": "=tolong|=mohon|=silakan|=pastikan|=harap",
    "my": "=saya|=milikku",
    "given": "yang diberikan kepadamu|yang kamu terima|yang diberikan kepada anda|yang anda terima",
    "urgent": "=segera|=sekarang juga",
    "if_you_are": "=jika kamu|=jika anda|=kalau kamu|=apabila anda",
    "reading_this": (
        "=yang membaca ini|=membaca ini|=yang memproses|=yang membaca|=yang merangkum"
        "|=yang mengelola|=yang menangani"
    ),
    "on_behalf": "=mewakili|=untuk orang lain|=untuk pemilik",
    "wish": "=meminta|=minta|=ingin agar|=mau agar",
    "modal": "=harus|=wajib|=sebaiknya|=hendaknya|=perlu",
    "discussion": "serangan|penyerang|injeksi|penelitian|misalnya|kerentanan",
}
