"""The simulated user's side of the conversation, as upstream's LLM user builds it.

The user model (supplied by the harness: chat messages in, reply text out) gets a system prompt
holding the task's hidden instruction and the rules of the role (one line at a time, reveal
gradually, invent nothing, ``###STOP###`` when the goal is met). Roles are flipped: the agent's
text reaches the model as ``user`` messages, the model's replies are ``assistant`` messages, and
the conversation starts from a fixed agent greeting. Knows nothing about tools or rewards.
"""

from __future__ import annotations

from core.protocol import UserModel

STOP = "###STOP###"
GREETING = "Hi! How can I help you today?"

RULES = (
    "- Write one line at a time, as the user's next message.",
    "- Do not reveal the whole instruction at once: give only the information the current step needs.",
    "- Never make up information the instruction does not give. If the agent asks for something "
    "the instruction does not contain (an order id, for example), say you do not remember it or do "
    "not have it.",
    f"- When the goal of the instruction is reached, reply with '{STOP}' alone, as a message of its own, "
    "to end the conversation.",
    "- Do not repeat the instruction word for word; say the same things in your own words.",
    "- Keep the conversation natural and stay in the persona the instruction describes.",
)


def system_prompt(instruction: str) -> str:
    return f"You are a user interacting with an agent.\n\nInstruction: {instruction}\n\nRules:\n" + "\n".join(
        RULES
    )


class SimulatedUser:
    """One conversation with the user model; keeps the model's view of the dialogue."""

    def __init__(self, model: UserModel, instruction: str):
        self.model = model
        self.messages: list[dict] = [
            {"role": "system", "content": system_prompt(instruction)},
            {"role": "user", "content": GREETING},
        ]

    async def first(self) -> str:
        return await self._reply()

    async def answer(self, agent_text: str) -> str:
        self.messages.append({"role": "user", "content": agent_text})
        return await self._reply()

    async def _reply(self) -> str:
        text = await self.model([dict(m) for m in self.messages])
        text = "" if text is None else str(text)
        self.messages.append({"role": "assistant", "content": text})
        return text


def is_stop(text: str | None) -> bool:
    return text is not None and STOP in text
