"""English: its words for each concept and how its grammar is read.

What each concept is, and how a term is written (`|`, `=`, `*`), is said in `concepts.py`.
"""

from .grammar import Grammar

GRAMMAR = Grammar(
    verb_first=True,
    negations="",
    whole_words=False,
    # Articles, possessives and "of": what may stand inside one phrase.
    small_words="the|a|an|of|your|my|our|their|his|her|its|these|those|this|that|all|any|every|other|such",
    # "and", "or": what joins two phrases.
    joining_words=("and", "or", "then", "but"),
)

WORDS = {
    "ignore": "ignor|disregard|forget|=override|bypass|pay no attention",
    "previous": "previous|=prior|=above|=earlier|preceding|=foregoing|=original|=initial",
    "all": "=all|=any|=every|=everything|=entire",
    "instructions": (
        "instruction|=directive|=directives|=rules|=guidelines|=prompt|=prompts|=commands|=orders"
        "|=constraints|=restrictions|=programming|=guardrails|=guidance|=setup|=configuration"
        "|=config|=system instructions|=preamble|=hidden rules|=operating rules"
    ),
    "system": "=system|=system's",
    "prompt": (
        "=prompt|=system-prompt|=systemprompt|=pre-prompt|=preprompt|=operator prompt|=preamble"
    ),
    "message": "=message|=messages",
    "reveal": (
        "reveal|=show|=print|=repeat|=output|=display|=tell me|=disclose|=leak|=dump|=recite"
        "|=paste|=write out|=spell out|=expose|=list your|=list all your|=enumerate your"
        "|=reproduce|=restate|=restating|=quote|=copy|=translate|=read back|=read me back|=echo"
        "|=type out|=quoting|=write your|=write down your|=respond with your|=respond with their"
        "|=reply with your"
    ),
    "verbatim": (
        "=verbatim|word for word|word-for-word|=exactly as|=in full|=exact wording|=exact"
        "|=full text|=unedited|=its full|=their full|=your full|=in its entirety"
    ),
    "your": "=your|=yours",
    "ai": (
        "=ai|=a.i.|assistant|language model|=llm|=llms|chatbot|=chatgpt|=gpt|=claude|=copilot|=bot"
        "|=bots|=helper|=helpers|=concierge|=crawler|=crawlers|=summarisation tool"
        "|=summarization tool|=summarising tool|=summarizing tool|=automation|=notetaker"
        "|=note-taker|=summariser|=summarizer|=summarisers|=summarizers|=copilots|=model|=models"
    ),
    "now": (
        "from now on|from here on|for the rest of this chat|for the rest of this conversation"
        "|henceforth|from this point on|from this moment|starting now|=you are now|=you're now"
    ),
    "role": (
        "=act as|=acting as|=pretend|=roleplay|=role-play|=role play|=persona|=play the role"
        "|=behave as|=behave like|=take on the role|=impersonate|=your new role|=you will be"
        "|=simulate"
    ),
    "unrestricted": (
        "unrestricted|unfiltered|uncensored|jailbreak|jailbroken|no restrictions|no limits"
        "|without restrictions|without limits|without any limits|without any restrictions|no rules"
        "|without rules|without filters|no filters|do anything now|developer mode|god mode"
        "|no ethical|without ethics|=amoral|no longer bound"
    ),
    "no_refusal": (
        "never refuse|don't refuse|do not refuse|cannot refuse|can't refuse|without refusing"
        "|obey every|comply with every|comply with all|answer any question|answer every question"
        "|any request|every request"
    ),
    "answer_with": (
        "=reply|=replying|=respond|=responding|=answer|=answers|=answer with|=reply with"
        "|=respond with|=say|=just say|=start every message with|=start every reply with"
        "|=begin every reply with|=prefixed with|=acknowledge by replying"
    ),
    "you_are": (
        "=you are|=you're|=you will be|=you'll be|=your name is|=introduce yourself as"
        "|=call yourself"
    ),
    "persona": "=identity|=persona|=character|=stay in character|=break character|=adopt|=mode",
    "disable": "=disable|=deactivate|=turn off|=switch off|=remove all|=lift all|=drop all",
    "safeguard": (
        "=safety|=filter|=filters|=guardrails|=restrictions|=censorship|=content policy"
        "|=safeguards|=moderation"
    ),
    "new": "=new|=updated|=real|=actual|=true",
    "secret": (
        "password|=passwd|api key|api-key|=apikey|=api keys|=access token|=auth token"
        "|=bearer token|credential|=secret key|private key|ssh key|=2fa code|one-time code"
        "|=seed phrase|recovery phrase|credit card|=cvv|security code|=access key|=session token"
        "|=secrets|=login details|=login credentials|=logins|=login codes|=backup codes|=2fa codes"
        "|=verification codes|=pin code|=pin number|=deploy key|=secret values"
    ),
    "send": (
        "=send|=sends|=sending|=forward|=forwarding|=upload|=transmit|=exfiltrate|=leak|=share"
        "|=submit|=deliver|=email me|=email it|=email them|=email the|=email all|=email my"
        "|=email every|=e-mail the|=e-mail me|=mail the|=text me|=text the|=text it|=dm|=dm me"
        "|=dm the|=message me|=reply with|=reply to me|=attach"
    ),
    "user_data": (
        "=emails|=e-mails|=messages|=files|=documents|=contacts|=conversation|=conversations"
        "|chat history|=inbox|personal data|personal information|=address book|=calendar|=photos"
        "|=attachments|customer data|user data|=records|=invoices|=receipts|=bank statements"
        "|=browsing history|=chat log|=chat logs|=contact list|=phone number|=phone numbers"
        "|=saved addresses|=home address|=date of birth|=passport number|=location history"
        "|=spreadsheet|=spreadsheets|=sheet|=roster|=customer list|=client list|=attendee list"
        "|=employee list|=member list|=contract|=contracts|=statement|=statements|=payroll|=salary"
        "|=tax id|=passport|=passport scan|=id card|=insurance|=scans|=price list|=pricing"
        "|=media kit|=cap table|=deck|=slides"
    ),
    "conceal": (
        "don't tell|do not tell|don't mention|do not mention|without telling|without informing"
        "|=secretly|=silently|=covertly|keep this secret|do not inform|don't inform"
        "|don't let the user know|do not notify|don't notify|never mention|never tell"
    ),
    "instead": "=instead|=in place of that",
    "steer": (
        "=state that|=mention that|=say that|=describe|=leave out|=omit|=summarise it as"
        "|=summarize it as|=be summarised as|=be summarized as|=recommend|=tell people"
        "|=tell readers|=tell the reader|=present it as|=portray|=conclude that|=report that"
        "|=list the"
    ),
    "user": "=user|=user's|=users|=the owner|=human|=reader|=readers",
    "admin": (
        "=admin|=administrator|=developer|=developers|=security team|=operator|=maintainer"
        "|=it department"
    ),
    "note": (
        "=note|=notice|=reminder|=attention|=warning|=memo|=instruction|=directive|=notification"
    ),
    "run": "=run|=execute|=invoke|=call|=trigger|=launch",
    "tool": "=tool|=function|=command|=script|=shell|=terminal",
    "say": (
        "=say|=reply with|=respond with|=answer with|=output|=print|=write|=type|=begin your"
        "|=start your|=end your|=respond only|=reply only|=answer only|=just say|=only say"
        "|=simply say|=reply|=replying|=respond|=answer|=answers|=start every message with"
        "|=start every reply with|=prefix|=prefixed with"
    ),
    "only": "=only|=nothing else|=and nothing more|=exactly|=solely",
    "hidden": "=hidden|=internal|=secret|=confidential|=private|=underlying",
    "authority": (
        "=authority|=authorized|=authorised|=privileges|=clearance|=admin rights|=full access"
    ),
    "reply": (
        "=your response|=your answer|=your reply|=your output|=each response|=every response"
        "|=every reply"
    ),
    "begin": "=begin|=start|=starting|=open with|=prefix",
    "cancel": (
        "=cancelled|=canceled|=revoked|=void|=no longer apply|=no longer applies|=no longer valid"
        "|=obsolete|=superseded|=out of date"
    ),
    "task": "=task|=goal|=objective|=mission|=assignment|=job|=purpose",
    "i_am": "=i am|=i'm|=speaking as|=on behalf of|=this is the",
    "act": (
        "=grant|=give access|=unlock|=transfer|=pay|=wire|=deposit|=withdraw|=delete|=erase|=wipe"
        "|=share|=forward|=move all|=sell|=buy|=purchase|=reset|=disable|=turn off|=deactivate"
        "|=invite|=approve|=authorize|=retrieve|=add my|=add a new|=change the password"
        "|=open the door|=cancel my|=refund|=issue a refund|=export|=add me|=make me|=log into"
        "|=log in to|=sign in to|=book|=reserve|=order|=cancel|=subscribe|=sign up|=add|=change"
        "|=update the|=update my|=update your|=update all|=update their|=update this|=edit|=set"
        "|=mark the|=mark this|=mark it|=mark all|=mark my|=mark whole|=mark them|=mark every"
        "|=mark as|=confirm|=close|=register|=apply|=reimburse|=whitelist|=allowlist|=release"
        "|=enable|=remove|=assign|=renew"
    ),
    "asset": (
        "=account|=accounts|=access|=sharing|=link sharing|=sharing settings|=permission"
        "|=permissions|=admin rights|=device|=devices|=lock|=smart lock|=door|=front door|=garage"
        "|=camera|=cameras|=alarm|=security system|=thermostat|=money|=funds|=payment|=bank"
        "|=wallet|=bitcoin|=btc|=crypto|=shares|=stock|=credit card|=repository|=repo|=folder"
        "|=drive|=medical records|=prescription|=subscription|=order|=orders|=meetings"
        "|=appointment|=appointments|=invite|=invitation|=booking|=bookings|=reservation"
        "|=reservations|=flight|=flights|=cart|=basket|=card|=cards|=saved card|=payment method"
        "|=payment methods|=bank details|=billing|=billing details|=billing contact|=payout"
        "|=payouts|=refund|=credit|=discount|=gift card|=gift cards|=voucher|=mailbox"
        "|=forwarding address|=delivery address|=shipping address|=email address|=workspace"
        "|=ownership|=dashboard|=channel|=membership|=license|=escalation policy|=mail filter"
        "|=workflow|=deploy key"
    ),
    "please": (
        "=please|=kindly|=can you|=could you|=would you|=i need you to|=make sure to|=be sure to"
        "|=you must|=you should"
    ),
    "my": "=my|=mine|=our",
    "given": (
        "=you were given|=you've been given|=you have been given|=you received|=you were told"
        "|=given to you|=provided to you|=you were programmed with|=were you given|=you are given"
        "|=you were configured with|=you were set up with|=told you|=you've received"
        "|=you have received|=were you told|=did you receive|=you were originally given"
        "|=you were initialised with|=you were initialized with|=you operate under"
        "|=they operate under|=it received before|=it was given|=you were started with"
        "|=you've been told|=you have been told|=you were instructed"
    ),
    "urgent": "=right away|=immediately|=asap|=at once|=without delay|=urgently|=right now",
    "if_you_are": "=if you are|=if you're|=when you are|=since you are|=as you are",
    "reading_this": (
        "=reading this|=processing this|=summarizing this|=summarising this|=parsing this"
        "|=that reads this|=who reads this|=reading my|=reading these|=reading your|=looking at"
        "|=processing these|=triaging|=handling|=managing|=that processes|=that handles"
        "|=that manages|=going through|=compiling|=summarizing|=summarising|=who handles"
        "|=who manages|=who processes|=picking this up|=picks this up|=applying this"
        "|=reviewing this|=working on this"
    ),
    "on_behalf": (
        "=on someone's behalf|=on their behalf|=on his behalf|=on her behalf|=on behalf of"
        "|=for the account holder|=for the account owner|=for someone|=for the user|=for the owner"
    ),
    "wish": (
        "=asked that|=asks that|=requests that|=requested that|=requests the|=requested the"
        "|=wants the|=wanted the|=would like the|=asked for the"
    ),
    "modal": (
        "=should|=must|=needs to|=need to|=is required to|=are required to|=has to|=have to|=shall"
        "|=is expected to|=are expected to|=is asked to|=are asked to"
    ),
    "frame": (
        "=asks|=asked|=asking|=tells|=told|=telling|=tricks|=tricked|=tricking|=gets|=makes|=made"
        "|=making|=convinces|=convinced|=convincing|=persuades|=persuaded|=instructs|=instructed"
        "|=causes|=caused|=lets|=let|=letting|=allows|=allow|=allowed|=allowing|=forces|=forced"
        "|=coaxes|=coaxed|=manipulates|=manipulated|=lures|=lured|=enables|=enabled|=enabling"
        "|=permits|=permitted"
    ),
    "discussion": (
        "=prompt injection|=prompt injections|=injection|=injections|=injected|=red-team|=red team"
        "|=red-teaming|=red teaming|=researchers|=researcher|=the study|=the paper|=phrases like"
        "|=jailbreak prompts|=jailbreaks|=jailbreaking|=a jailbreak|=the jailbreak"
        "|=jailbreak attempts|=jailbreak studies|=jailbreak research|=jailbreak techniques"
        "|=jailbreak strings|=jailbreak benchmarks|=jailbreak datasets|=jailbreak examples"
        "|=jailbreak methods|=attack|=attacks|=attackers|=payload|=payloads|=phishing"
        "|=never ask you|=will never ask|=ever ask you|=exploit|=exploits|=exploited"
        "|=vulnerability|=vulnerabilities|=mitigation|=mitigations|=threat model|=ctf|=writeup"
    ),
}
