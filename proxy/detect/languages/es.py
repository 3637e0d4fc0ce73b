"""Spanish: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=True,
    negations="no|nunca|jamas",
    whole_words=False,
    # "never".
    limits=("nunca",),
    # Articles, possessives and "of": what may stand inside one phrase.
    small_words="el|la|los|las|lo|un|una|de|del|al|tu|tus|su|sus|mi|mis|estas|estos|esas|esos",
    # "and", "or": what joins two phrases.
    joining_words=("y", "o"),
)

WORDS = {
    "ignore": "ignor|olvid|pasa por alto|haz caso omiso|descarta|omite|=anula|sobrescrib",
    "previous": "anterior|previ|=arriba|precedente|=original|=originales|=inicial|=iniciales",
    "all": "=todas|=todos|=toda|=todo el|=todo lo|=todo mi|=todo tu|=todo su|=todo esto|=cualquier",
    "instructions": (
        "instruccion|=reglas|=órdenes|directriz|directrices|indicaciones|=restricciones|=normas"
        "|=pautas"
    ),
    "system": "=sistema",
    "prompt": "=prompt",
    "message": "=mensaje",
    "reveal": (
        "revel|muestr|=mostrar|imprim|repit|=repetir|=dime|divulg|exponer|=expón|copia|=copiar"
        "|=reproduce"
    ),
    "verbatim": "palabra por palabra|=textualmente|=literalmente|al pie de la letra",
    "your": "=tu|=tus|=vuestras|=vuestro",
    "ai": "=asistente|=ia|modelo de lenguaje|inteligencia artificial|=modelo|=bot",
    "now": "a partir de ahora|de ahora en adelante|desde ahora|ahora eres|ahora estás|ahora estas",
    "role": (
        "actúa como|finge|=fingir|interpreta el papel|=rol|juego de rol|compórtate como"
        "|haz el papel"
    ),
    "unrestricted": (
        "sin restricciones|sin límites|sin filtro|sin censura|sin reglas|modo desarrollador"
        "|sin ninguna restricción"
    ),
    "no_refusal": (
        "nunca te niegues|no te niegues|no puedes negarte|=obedece|sin negarte|cualquier petición"
        "|cualquier solicitud"
    ),
    "answer_with": "=responde|=contesta|=respondan|=contesten|=responda",
    "you_are": "=eres|=serás|=ahora eres|=tu nombre es|=te llamas|=preséntate como",
    "persona": "=identidad|=personaje|=modo",
    "disable": "desactiva|deshabilita|elimina|quita|suprime",
    "safeguard": "seguridad|=filtro|=filtros|censura|restricciones",
    "new": "=nuevas|=nuevo|=nueva|=nuevos|=verdaderas",
    "secret": (
        "contraseña|clave de api|clave api|clave privada|clave secreta|=credenciales|=token"
        "|código de verificación|tarjeta de crédito"
    ),
    "send": (
        "envía|=envia|=enviar|=envíe|=manda|=mandar|reenvía|=reenviar|=sube|=súbelo|=subir"
        "|comparte|=compartir|transfiere|=transferir"
    ),
    "user_data": (
        "correos|=mensajes|=archivos|=documentos|=contactos|conversación|=historial"
        "|datos personales|=datos|información personal|número de teléfono|=direcciones"
        "|=dirección de casa|fecha de nacimiento|hoja de cálculo|=informe|=informes|contrato"
        "|lista de clientes|nómina|facturas|extractos"
    ),
    "conceal": (
        "no le digas|no digas|no menciones|no informes|sin decirle|sin avisar|en secreto"
        "|secretamente|sin informar"
    ),
    "instead": "=en su lugar|=en lugar de eso|=en cambio",
    "steer": (
        "=indica que|=di que|=menciona|=describe|=omite|=deja fuera|=resúmelo como|=recomienda"
        "|=afirma que"
    ),
    "user": "=usuario|=usuaria|=propietario",
    "admin": "=administrador|=desarrollador|=desarrolladores|equipo de seguridad",
    "note": "=nota|=aviso|=atención|=recordatorio|=advertencia",
    "run": "ejecuta|=ejecutar|invoca|llama a|lanza",
    "tool": "herramienta|=función|=comando|=script",
    "say": "=responde|=contesta|escribe|=imprime|comienza tu|empieza tu",
    "only": "=solo|=sólo|=solamente|=únicamente|nada más",
    "hidden": "ocult|=interna|=internas|=internos|=secreta|=secretas|confidencial",
    "authority": "autoridad|autorizad|privilegios|permisos de administrador",
    "reply": "tu respuesta|=respuesta|cada respuesta",
    "begin": "comienza|empieza|=inicia",
    "cancel": "cancelad|anulad|revocad|ya no aplican|ya no son válidas|sin efecto",
    "task": "=tarea|=objetivo|=misión",
    "i_am": "=soy|=hablo como|=como administrador",
    "act": (
        "concede|otorga|da acceso|desbloquea|transfiere|paga|=deposita|retira|elimina|borra"
        "|comparte|reenvía|vende|compra|restablece|desactiva|invita|aprueba|=reserva|=pide|=ordena"
        "|=cancela|=cancelad|suscribe|añade|agrega|=cambia|=cambiad|=actualiza|=modifica|=marca"
        "|=confirma|=registra|inicia sesión|reembolsa|=aplica"
    ),
    "asset": (
        "cuenta|acceso|permiso|dispositivo|cerradura|=puerta|=cámara|=cámaras|alarma|dinero|fondos"
        "|=pago|banco|billetera|bitcoin|acciones|carpeta|repositorio|=la reunión|=mi reunión"
        "|=tu reunión|=su reunión|=reuniones|=cita|=citas|reserva|=vuelo|hotel|carrito|tarjeta"
        "|método de pago|datos bancarios|reembolso|descuento|tarjeta regalo|buzón"
        "|dirección de entrega|dirección de envío|suscripción|=envío"
    ),
    "please": "por favor|=puedes|=podrías|asegúrate de|=debes",
    "my": "=mi|=mis|=nuestro|=nuestra",
    "given": "te dieron|que recibiste|te han dado|se te dio|se te dieron",
    "urgent": "inmediatamente|de inmediato|=ya mismo|cuanto antes|=urgente",
    "if_you_are": "=si eres|=si usted es|=si tú eres|=como eres",
    "reading_this": (
        "=que lea esto|=leyendo esto|=que procese|=que resuma|=lees esto|=que lee|=que gestiona"
        "|=que procesa|=que resume|=que revisa|=que maneja|=que lea|=que gestione"
    ),
    "on_behalf": "=en nombre de|=por cuenta de|=para el titular|=para otra persona|=por alguien",
    "wish": "=quiere que|=pide que|=pidió que|=solicita que|=solicitó que|=desea que",
    "modal": "=debe|=deben|=deberá|=deberán|=debería|=deberían|=tiene que|=tienen que",
    "frame": "=pedir|=pide|=piden|=pidió|=pidiendo|=hacer que|=hace que|=lograr que|=consigue que",
    "discussion": (
        "ataque|atacante|inyección|investigador|estudio|por ejemplo|defensa|vulnerabilidad"
    ),
}
