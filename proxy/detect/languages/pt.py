"""Portuguese: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=True,
    negations="nao|nunca|jamais",
    whole_words=False,
    # "not", "never".
    limits=("não", "nunca"),
    # Articles, possessives and "of": what may stand inside one phrase.
    small_words=(
        "o|os|a|as|um|uma|de|do|da|dos|das|teu|tua|teus|tuas|seu|sua|seus|suas|meu|minha|essas|esses"
    ),
    # "and", "or": what joins two phrases.
    joining_words=("e", "ou"),
)

WORDS = {
    "ignore": "ignor|esqueç|esquec|desconsider|descarte|anule",
    "previous": "anterior|prévi|=acima|=original|=originais|=inicial|=iniciais",
    "all": "=todas|=todos|=tudo|=qualquer",
    "instructions": "instruç|=regras|=ordens|diretriz|diretrizes|=restrições|orientações",
    "system": "=sistema",
    "prompt": "=prompt",
    "message": "=mensagem",
    "reveal": "revel|mostr|exib|imprim|repit|=repetir|=diga|divulg|copie|=copiar|=reproduza",
    "verbatim": "palavra por palavra|=textualmente|=literalmente",
    "your": "=seu|=sua|=seus|=suas|=teu|=tua|=teus|=tuas",
    "ai": "=assistente|=ia|modelo de linguagem|inteligência artificial|=modelo|=modelos|=robô|=bot",
    "now": "a partir de agora|de agora em diante|doravante|agora você é|você agora é|agora és",
    "role": (
        "atue como|aja como|finja|=fingir|=papel de|interprete o papel|=personagem|comporte-se como"
    ),
    "unrestricted": (
        "sem restrições|sem limites|sem filtro|sem censura|sem regras|modo desenvolvedor"
    ),
    "no_refusal": (
        "nunca recuse|não recuse|=obedeça|sem recusar|qualquer pedido|qualquer solicitação"
    ),
    "answer_with": "=responda|=responde|=diga|=respondam",
    "you_are": "=você é|=tu és|=você será|=seu nome é|=você se chama|=apresente-se como",
    "persona": "=identidade|=personagem|=modo",
    "disable": "desative|desativa|desabilite|remova|retire",
    "safeguard": "segurança|=filtro|=filtros|censura|restrições",
    "new": "=novas|=novo|=nova|=novos|=verdadeiras",
    "secret": (
        "senha|=credenciais|chave de api|chave api|chave privada|chave secreta|=token"
        "|código de verificação|cartão de crédito"
    ),
    "send": (
        "envie|=enviar|=envia|mande|=mandar|encaminh|reenvie|=compartilhe|transfira|=transferir"
    ),
    "user_data": (
        "e-mails|=mensagens|=arquivos|=ficheiros|=documentos|=contatos|=conversa|histórico"
        "|dados pessoais|=dados|número de telefone|=endereços|data de nascimento|planilha"
        "|relatório|contrato|lista de clientes|folha de pagamento|faturas|extratos|digitalizações"
    ),
    "conceal": (
        "não conte|não diga|não mencione|sem avisar|sem informar|secretamente|em segredo|sem contar"
    ),
    "instead": "=em vez disso|=ao invés disso|=em seu lugar",
    "steer": (
        "=diga que|=mencione|=descreva|=omita|=deixe de fora|=resuma como|=recomende|=afirme que"
    ),
    "user": "=usuário|=utilizador|=dono",
    "admin": "=administrador|=desenvolvedor|=desenvolvedores|equipe de segurança",
    "note": "=nota|=aviso|=atenção|=lembrete",
    "run": "execute|=executar|invoque|chame|=rode",
    "tool": "ferramenta|=função|=comando|=script",
    "say": "=diga|=responda|=escreva|=imprima|comece sua|comece a sua",
    "only": "=somente|=apenas|=unicamente|nada mais",
    "hidden": "ocult|=interna|=internas|=internos|=secreta|=secretas|confidencia",
    "authority": "autoridade|autorizad|privilégios",
    "reply": "sua resposta|=resposta|cada resposta",
    "begin": "comece|inicie|=comece",
    "cancel": "cancelad|anulad|revogad|não se aplicam|sem efeito",
    "task": "=tarefa|=objetivo|=missão",
    "i_am": "=sou|=falo como|=como administrador",
    "act": (
        "conceda|dê acesso|desbloqueie|transfira|pague|deposite|retire|exclua|apague|compartilhe"
        "|encaminhe|venda|=compre|redefina|desative|convide|aprove|=reserve|=peça|encomende"
        "|=cancele|adicione|inclua|=altere|=mude|atualize|modifique|=marque|=confirme|=registre"
        "|cadastre|reembolse|aplique|=efetuem|=efetue"
    ),
    "asset": (
        "=conta|=contas|acesso|permissão|dispositivo|fechadura|=porta|câmera|alarme|dinheiro"
        "|fundos|pagamento|banco|carteira|bitcoin|ações|=minha pasta|=sua pasta|=pasta de"
        "|=pasta do|=pastas de|=pastas do|repositório|reunião|reuniões|agendamento|reserva|=voo"
        "|hotel|carrinho|cartão|forma de pagamento|dados bancários|reembolso|desconto"
        "|cartão-presente|caixa de entrada|endereço de entrega|assinatura|cobrança|=taxa|=pix"
    ),
    "please": "por favor|=pode|=poderia|certifique-se|=você deve",
    "my": "=meu|=minha|=meus|=minhas|=nosso",
    "given": "que você recebeu|te deram|lhe foram dadas|foram dadas a você",
    "urgent": "imediatamente|=agora mesmo|o quanto antes|=urgente",
    "if_you_are": "=se você é|=se você for|=se tu és|=caso você seja",
    "reading_this": (
        "=lendo isto|=que ler isto|=lendo este|=que processar|=que leem|=que gerencia"
        "|=que processa|=que resume|=que cuida|=que ler"
    ),
    "on_behalf": "=em nome de|=para o titular|=para outra pessoa|=por alguém",
    "wish": "=quer que|=pede que|=pediu que|=solicita que|=solicitou que|=deseja que",
    "modal": "=deve|=devem|=deverá|=deverão|=deveria|=deveriam|=tem que|=têm que|=precisa",
    "frame": "=pedir|=pede|=pedem|=pediu|=pedindo|=fazer|=faz|=fazem|=levar|=leva|=convencer",
    "discussion": "ataque|atacante|injeção|pesquisador|estudo|por exemplo|defesa|vulnerabilidade",
}
