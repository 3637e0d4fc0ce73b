"""The answers whose text a server writes for the model (see `model_text`), named without loading
the judge: a proxy asks which they are before it has loaded it."""

# The answers whose text the server wrote for the model: its description of itself, and the
# prompts a person picks from it (MCP prompts are user-controlled templates that tell the model
# what to do), not data it fetched. A prompt still taints like any read of an untrusted server.
MODEL_TEXT_METHODS = frozenset(
    {
        "tools/list",
        "prompts/list",
        "prompts/get",
        "resources/templates/list",
        "initialize",
        "server/discover",
    }
)
