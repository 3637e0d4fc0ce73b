"""French: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=True,
    negations="ne|n'|jamais",
    whole_words=False,
    # "never".
    limits=("jamais",),
    # Articles, possessives and "of": what may stand inside one phrase.
    small_words="le|la|les|l|un|une|des|du|de|d|ton|ta|tes|votre|vos|son|sa|ses|mon|ma|mes|ces",
    # "and", "or": what joins two phrases.
    joining_words=("et", "ou"),
)

WORDS = {
    "ignore": (
        "ignor|oubli|ne tiens pas compte|ne tenez pas compte|fais abstraction|passe outre|contourne"
    ),
    "previous": (
        "précédent|antérieur|=ci-dessus|plus haut|=initial|=initiales|=initiaux|=original"
        "|=originales"
    ),
    "all": "=tous|=toutes|=tout|=toute",
    "instructions": "instruction|consigne|=règles|directive|=ordres|=restrictions",
    "system": "=système|=systeme",
    "prompt": "=prompt|=l'invite|=ton invite|=votre invite|=invite système|=invite initiale",
    "message": "=message",
    "reveal": (
        "révèl|révél|=montre|montrez|affich|répèt|répét|=dis-moi|=donne-moi|divulgu|=expose|=copie"
        "|=recopie|recopier|=recopiez"
    ),
    "verbatim": "mot pour mot|=textuellement|=intégralement|=littéralement|mot à mot",
    "your": "=ton|=ta|=tes|=votre|=vos",
    "ai": "=ia|assistant|modèle de langage|intelligence artificielle|=modèle|=bot",
    "now": (
        "désormais|dorénavant|à partir de maintenant|dès maintenant|tu es maintenant"
        "|vous êtes maintenant"
    ),
    "role": (
        "agis comme|agissez comme|fais semblant|faites semblant|joue le rôle|=ton rôle"
        "|=nouveau rôle|=le rôle de|=incarne|comporte-toi comme"
    ),
    "unrestricted": (
        "sans restriction|sans limite|sans filtre|sans censure|sans règles|non censuré"
        "|mode développeur|aucune restriction"
    ),
    "no_refusal": (
        "ne refuse jamais|ne refusez jamais|ne refuse pas|=obéis|=obéir|sans exception"
        "|sans refuser|toute demande"
    ),
    "answer_with": "=réponds|=répondez|=dis",
    "you_are": "=tu es|=vous êtes|=tu seras|=ton nom est|=tu t'appelles|=présente-toi comme",
    "persona": "=identité|=personnage|=mode",
    "disable": "désactive|supprime|enlève|retire|=lève|=levez",
    "safeguard": "sécurité|filtre|censure|restriction",
    "new": "=nouvelles|=nouvelle|=nouveau|=nouveaux|=vraies",
    "secret": (
        "mot de passe|mots de passe|=identifiants|clé api|clé d'api|clé privée|clé secrète|=jeton"
        "|code de vérification|carte de crédit|carte bancaire"
    ),
    "send": (
        "=envoie|=envoyer|=envoyez|transfère|=transférer|=transmets|transmett|fais suivre"
        "|téléverse|=partage|=vire|=virer"
    ),
    "user_data": (
        "e-mails|courriels|=messages|fichiers|documents|contacts|conversation|historique|données"
        "|numéro de téléphone|=adresses|date de naissance|tableur|feuille de calcul|rapport"
        "|contrat|liste des clients|fiche de paie|factures|relevés|=scans|pièces d'identité"
    ),
    "conceal": (
        "ne dis pas|ne dites pas|ne mentionne pas|ne mentionnez pas|sans prévenir|secrètement"
        "|en secret|discrètement|n'informe pas"
    ),
    "instead": "=à la place|=au lieu de cela|=plutôt",
    "steer": (
        "=indique que|=dis que|=dites que|=mentionne|=mentionnez|=décris|=décrivez|=omets|=omettez"
        "|=recommande|=recommandez|=affirme que"
    ),
    "user": "utilisateur|propriétaire",
    "admin": "administrateur|développeur|équipe de sécurité",
    "note": "=note|=remarque|=avis|=attention|=rappel|=avertissement",
    "run": "exécute|=lance|=appelle|invoque",
    "tool": "=outil|=fonction|=commande|=script",
    "say": "=dis|réponds|=répondez|écris|=écrivez|commence ta|commence ta réponse",
    "only": "=seulement|=uniquement|rien d'autre|=juste",
    "hidden": "=caché|cachée|=interne|=internes|=secrète|=secrètes|confidentiel",
    "authority": "autorité|autorisé|privilèges|droits d'administrateur",
    "reply": "ta réponse|votre réponse|=réponse|chaque réponse",
    "begin": "commence|débute",
    "cancel": "annulé|révoqué|caduc|ne s'appliquent plus|nulles",
    "task": "=tâche|=objectif|=mission",
    "i_am": "=je suis|=ici l'|=en tant qu",
    "act": (
        "accorde|donne accès|déverrouille|transfère|=vire|=paie|supprime|efface|partage|vends"
        "|achète|réinitialise|désactive|=invite|=invitez|approuve|=réserve|=commande|=commandez"
        "|=annule|=annulez|=abonne|=ajoute|=ajoutez|=modifie|=modifiez|=changez|mets à jour"
        "|=marquez|=confirme|=confirmez|=inscris|=inscrivez|=rembourse|=remboursez|=applique"
    ),
    "asset": (
        "compte|accès|permission|appareil|serrure|=porte|caméra|alarme|argent|fonds|paiement"
        "|banque|portefeuille|bitcoin|=mes actions|=tes actions|=vos actions|=ses actions|dossier"
        "|dépôt de|dépôt git|=la réunion|=ma réunion|=ta réunion|=votre réunion|=les réunions"
        "|=mes réunions|=vos réunions|rendez-vous|réservation|=vols|billet d'avion|hôtel|panier"
        "|=carte|moyen de paiement|coordonnées bancaires|=rib|remboursement|réduction|carte cadeau"
        "|boîte de réception|messagerie|adresse de livraison|abonnement"
    ),
    "please": "s'il vous plaît|s'il te plaît|=veuillez|=peux-tu|=pouvez-vous|assure-toi|=tu dois",
    "my": "=mon|=ma|=mes|=notre|=nos",
    "given": (
        "qu'on t'a donné|que tu as reçu|qui t'ont été donné|qu'on vous a donné|que vous avez reçu"
        "|=qui t'a été fourni|=qui t'ont été fournies|=qui vous a été fourni|=fourni au démarrage"
    ),
    "urgent": "immédiatement|tout de suite|sans délai|=d'urgence|au plus vite",
    "if_you_are": "=si tu es|=si vous êtes|=si tu est|=comme tu es",
    "reading_this": (
        "=qui lit ceci|=lisant ceci|=qui lit ce|=qui traite|=qui résume|=qui gère|=qui lit"
    ),
    "on_behalf": "=au nom de|=pour le compte de|=pour le titulaire|=pour quelqu'un",
    "wish": "=demande que|=a demandé que|=souhaite que|=veut que|=voudrait que",
    "modal": "=doit|=doivent|=devra|=devront|=devrait|=devraient|=il faut",
    "discussion": "attaque|attaquant|=injection|étude|chercheur|par exemple|défense|vulnérabilité",
}
