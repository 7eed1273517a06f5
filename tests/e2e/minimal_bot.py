"""A tiny discord.py bot used to test the fake Discord and as a latency baseline.

Run as its own process: ``python -m tests.e2e.minimal_bot`` with DISCORD_TOKEN,
DISCORD_API_BASE and DISCORD_GATEWAY_URL set (``FakeDiscord.bot_env()``).

Commands (one group, ``/demo``):
  /demo ping                  answers "pong" at once (latency baseline)
  /demo hello                 a message with a "Reveal" button (non-persistent view);
                              the click edits that message and DMs the clicker a secret,
                              falling back to an ephemeral reply when DMs are closed (50007)
  /demo add a:int b:int       typed options: "a + b = n"
  /demo whois user:User       user option with resolved member: "<name> has id <id>"
  /demo form                  opens a modal; its submit answers "Thanks, <name>: <comment>"
  /demo pick                  a select menu; choosing edits the message "You picked <v>"
  /demo slow                  defers, then edits the original response after 0.2 s
  /demo admin echo text:str   subcommand group; ephemeral echo
  /where                      declared for server and user installs, in servers, DMs and
                              group DMs: says what discord.py read from the interaction
                              (context, installs, guild, channel type) with buttons:
                              "Again" (type 7, the same for the clicker), "Post" (posts in
                              the channel itself; in a group DM that is refused with 403
                              50001, said in an ephemeral answer), "Form" (the /demo form
                              modal) and "Edit earlier" (defers,
                              then edits the message through the /where interaction's own
                              token, and says how that went in an ephemeral follow-up)
  /stamp message_id:str       user and server installs, every context: edits that message
                              through its own token and says how that went (ephemeral)
  /serveronly                 server install, servers only (``guild_only``)

Environment: MINIMAL_BOT_GUILD_ID syncs the commands to that guild instead of globally;
GUILD_READY_TIMEOUT (default 0.2 s) is discord.py's wait after the last GUILD_CREATE;
IDENTIFY_DELAY_SECONDS (default 5, discord.py's) the wait before an IDENTIFY that is not
the first (a new session after an invalid one).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

import discord
from discord import app_commands

from bot.endpoints import configure_endpoints

log = logging.getLogger("minimal_bot")

SECRET = "Your secret card: 7 of Spades"


class RevealView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=600)

    @discord.ui.button(
        label="Reveal", style=discord.ButtonStyle.primary, custom_id="minimal:reveal"
    )
    async def reveal(
        self, interaction: discord.Interaction, button: discord.ui.Button[RevealView]
    ) -> None:
        button.disabled = True
        await interaction.response.edit_message(
            content=f"Revealed by {interaction.user.display_name}", view=self
        )
        try:
            await interaction.user.send(SECRET)
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            await interaction.followup.send(f"{SECRET} (your DMs are closed)", ephemeral=True)


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=600)

    @discord.ui.select(
        custom_id="minimal:pick",
        placeholder="Pick a suit",
        options=[discord.SelectOption(label=s, value=s.lower()) for s in ("Hearts", "Spades")],
    )
    async def pick(
        self, interaction: discord.Interaction, select: discord.ui.Select[PickView]
    ) -> None:
        await interaction.response.edit_message(content=f"You picked {select.values[0]}", view=None)


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    name: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(label="Name", custom_id="name")
    comment: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(
        label="Comment", custom_id="comment", style=discord.TextStyle.paragraph, required=False
    )

    def __init__(self) -> None:
        super().__init__(custom_id="minimal:feedback", timeout=600)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Thanks, {self.name.value}: {self.comment.value}")


demo = app_commands.Group(name="demo", description="Minimal bot commands")
admin = app_commands.Group(name="admin", description="Admin tools", parent=demo)


@demo.command(name="ping", description="Immediate answer")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong")


@demo.command(name="hello", description="A message with a button")
async def hello(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(
        f"Hello {interaction.user.display_name}! Press Reveal.", view=RevealView()
    )


@demo.command(name="add", description="Add two integers")
async def add(interaction: discord.Interaction, a: int, b: int) -> None:
    await interaction.response.send_message(f"{a} + {b} = {a + b}")


@demo.command(name="whois", description="Describe a member")
async def whois(interaction: discord.Interaction, user: discord.Member) -> None:
    await interaction.response.send_message(f"{user.display_name} has id {user.id}")


@demo.command(name="form", description="Open a modal")
async def form(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(FeedbackModal())


@demo.command(name="pick", description="A select menu")
async def pick(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Pick one", view=PickView())


@demo.command(name="slow", description="Deferred answer")
async def slow(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(0.2)
    await interaction.edit_original_response(content="done thinking")


@admin.command(name="echo", description="Echo text privately")
async def echo(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message(f"echo: {text}", ephemeral=True)


def describe(interaction: discord.Interaction) -> str:
    """What discord.py read from an interaction's context and installs."""
    ctx = interaction.context
    where = "guild" if ctx.guild else "bot_dm" if ctx.dm_channel else "private_channel"
    channel = interaction.channel
    kind = channel.type.name if channel is not None else "none"
    guild = "none" if interaction.guild is None else "yes"
    return (
        f"context={where} user_install={interaction.is_user_integration()}"
        f" guild_install={interaction.is_guild_integration()} guild={guild} channel={kind}"
        f" by={interaction.user.name}"
    )


#: message id -> the /where interaction that made it (its token edits it for 15 min)
EARLIER: dict[int, discord.Interaction] = {}


class WhereView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=1800)

    @discord.ui.button(label="Again", custom_id="minimal:again")
    async def again(
        self, interaction: discord.Interaction, button: discord.ui.Button[WhereView]
    ) -> None:
        await interaction.response.edit_message(content=describe(interaction), view=self)

    @discord.ui.button(label="Post", custom_id="minimal:post")
    async def post(
        self, interaction: discord.Interaction, button: discord.ui.Button[WhereView]
    ) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        try:
            await channel.send("posted by the bot itself")
        except discord.Forbidden as exc:
            await interaction.response.send_message(
                f"cannot post here: {exc.status} {exc.code}", ephemeral=True
            )
            return
        await interaction.response.send_message("posted", ephemeral=True)

    @discord.ui.button(label="Form", custom_id="minimal:form")
    async def form(
        self, interaction: discord.Interaction, button: discord.ui.Button[WhereView]
    ) -> None:
        await interaction.response.send_modal(FeedbackModal())

    @discord.ui.button(label="Edit earlier", custom_id="minimal:earlier")
    async def earlier(
        self, interaction: discord.Interaction, button: discord.ui.Button[WhereView]
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        first = EARLIER.get(interaction.message.id if interaction.message else 0)
        if first is None:
            await interaction.followup.send("no earlier interaction", ephemeral=True)
            return
        try:
            await first.edit_original_response(content=f"edited by {interaction.user.name}")
        except discord.HTTPException as exc:
            await interaction.followup.send(
                f"first token refused: {exc.status} {exc.code}", ephemeral=True
            )
            return
        await interaction.followup.send("first token worked", ephemeral=True)


@app_commands.command(name="where", description="Where am I, as discord.py reads it")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def where(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(describe(interaction), view=WhereView())
    message = await interaction.original_response()
    EARLIER[message.id] = interaction


@app_commands.command(name="stamp", description="Edit a message through its own token")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def stamp(interaction: discord.Interaction, message_id: str) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        await interaction.followup.edit_message(
            int(message_id), content=f"stamped by {interaction.user.name}"
        )
    except discord.HTTPException as exc:
        await interaction.followup.send(f"stamp refused: {exc.status} {exc.code}")
        return
    await interaction.followup.send("stamped")


@app_commands.command(name="serveronly", description="Only in servers")
@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
async def serveronly(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("server only")


class MinimalBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            guild_ready_timeout=float(os.environ.get("GUILD_READY_TIMEOUT", "0.2")),
        )
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(demo)
        self.tree.add_command(where)
        self.tree.add_command(stamp)
        self.tree.add_command(serveronly)

    async def setup_hook(self) -> None:
        guild_id = os.environ.get("MINIMAL_BOT_GUILD_ID")
        if guild_id:
            guild = discord.Object(int(guild_id))
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not initial:
            await asyncio.sleep(float(os.environ.get("IDENTIFY_DELAY_SECONDS", "5")))

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guilds", self.user, len(self.guilds))

    async def on_resumed(self) -> None:
        log.info("resumed")


def main() -> int:
    configure_endpoints(os.environ.get("DISCORD_API_BASE"), os.environ.get("DISCORD_GATEWAY_URL"))
    token = os.environ.get("DISCORD_TOKEN")
    if not token:
        print("DISCORD_TOKEN is not set", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=logging.INFO)
    MinimalBot().run(token, log_handler=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
