"""The fake Discord's group DMs and user installs, against the real discord.py client (the
minimal bot): what an interaction in a group DM carries, what the bot may and may not do
there, which messages an interaction token reaches and for how long, and which commands
Discord would offer where."""

from __future__ import annotations

import aiohttp
import pytest

from localdiscord import CommandUnavailable, FakeDiscord, FakeUser
from localdiscord.models import walk_components
from localdiscord.sandbox import Sandbox

from .conftest import MINIMAL_BOT_ARGS, SHARED, BotProcess, Shared, StartBot, World
from .conversation import Conversation

pytestmark = pytest.mark.e2e


def friends(shared: Shared) -> tuple[FakeDiscord, FakeUser, FakeUser, FakeUser]:
    """alice (the app installed on her account), bob and carol (not installed)."""
    fake, world = shared.fake, shared.world
    fake.install_for_user(world.alice)
    return fake, world.alice.user, world.bob.user, world.carol.user


@SHARED
async def test_group_dm_interaction_reads_as_discord_sends_it(shared_minimal: Shared) -> None:
    fake, alice, bob, carol = friends(shared_minimal)
    gdm = fake.group_dm(alice, bob, carol, name="friends")
    assert gdm.type == 3 and gdm.is_group_dm and gdm.guild_id is None
    assert gdm.payload()["recipients"][0]["id"] == str(alice.id)
    assert gdm.owner_id == alice.id and gdm.name == "friends"
    assert fake.group_dms_of(bob) == [gdm]

    r = await fake.slash(alice, gdm, "where")
    assert r.callback_type == 4 and not r.ephemeral
    assert r.text == (
        "context=private_channel user_install=True guild_install=False guild=none"
        " channel=group by=alice"
    )
    assert r.context == 2 and r.integration_owners == {"1": str(alice.id)}
    message = r.require_message()
    # every member of the group DM sees it, nobody else does
    for person in (alice, bob, carol):
        assert message in fake.visible_to(person)
    outsider = fake.add_user("dave")
    assert message not in fake.visible_to(outsider)
    assert fake.channel_messages(gdm) == [message]
    assert r.payload["channel"]["name"] == "friends"

    # bob has not installed the app, yet he may click: the click carries alice's install
    click = await fake.click(bob, message, label="Again")
    assert click.callback_type == 7
    assert click.integration_owners == {"1": str(alice.id)}
    assert fake.message(message.id).text == (
        "context=private_channel user_install=False guild_install=False guild=none"
        " channel=group by=bob"
    )
    with pytest.raises(PermissionError):  # not in the group DM, cannot see the message
        await fake.click(outsider, message, label="Again")

    # the payload as sent: no server, the person as `user`, the group DM with its members
    sent = click.payload
    assert "guild_id" not in sent and "member" not in sent and "guild" not in sent
    assert sent["user"]["id"] == str(bob.id) and sent["context"] == 2
    assert sent["channel"]["type"] == 3 and sent["channel"]["owner_id"] == str(alice.id)
    assert [u["id"] for u in sent["channel"]["recipients"]] == [
        str(u.id) for u in (alice, bob, carol)
    ]
    assert int(sent["app_permissions"]) > 0
    assert sent["authorizing_integration_owners"] == {"1": str(alice.id)}

    # a modal opened there and submitted: the submit is authorized as the opening was
    opened = await fake.click(carol, message, label="Form")
    assert opened.callback_type == 9 and opened.modal is not None
    thanks = await fake.submit_modal(carol, None, "minimal:feedback", {"name": "Carol"})
    assert thanks.channel is gdm and thanks.context == 2
    assert thanks.integration_owners == {"1": str(alice.id)}
    assert thanks.text == "Thanks, Carol: " and message in fake.visible_to(carol)
    assert thanks.require_message() in fake.visible_to(bob)

    # the same command in the bot's DM and in a server: context 1 and 0, every install
    dm = await fake.slash(alice, fake.dm_channel(alice), "where")
    assert dm.context == 1 and dm.integration_owners == {"0": "0", "1": str(alice.id)}
    assert dm.text.startswith("context=bot_dm user_install=True guild_install=False guild=none")
    world = shared_minimal.world
    in_server = await fake.slash(world.bob, world.channel, "where")
    assert in_server.context == 0 and in_server.integration_owners == {"0": str(world.guild.id)}
    assert in_server.text == (
        "context=guild user_install=False guild_install=True guild=yes channel=text by=bob"
    )
    by_installer = await fake.slash(world.alice, world.channel, "where")
    assert by_installer.integration_owners == {"0": str(world.guild.id), "1": str(alice.id)}
    assert "user_install=True guild_install=True" in by_installer.text


@pytest.mark.expect_http(403, r"/channels/\d+")
@SHARED
async def test_bot_has_no_access_to_a_group_dm_of_its_own(shared_minimal: Shared) -> None:
    fake, alice, bob, _carol = friends(shared_minimal)
    gdm = fake.group_dm(alice, bob)
    r = await fake.slash(alice, gdm, "where")
    message = r.require_message()

    post = await fake.click(bob, message, label="Post")
    assert post.callback_type == 4 and post.ephemeral
    assert post.text == "cannot post here: 403 50001"
    assert [m.id for m in fake.channel_messages(gdm)] == [message.id]  # nothing was posted
    assert fake.requests_to(f"/channels/{gdm.id}/messages", "POST")[-1].status == 403

    # the bot's other requests on the channel: the same answer, nothing changes
    base = f"{fake.api_base}/channels/{gdm.id}"
    calls = [
        ("GET", base),
        ("POST", f"{base}/typing"),
        ("GET", f"{base}/messages"),
        ("PATCH", f"{base}/messages/{message.id}"),
        ("DELETE", f"{base}/messages/{message.id}"),
        ("PUT", f"{base}/messages/{message.id}/reactions/%F0%9F%83%8F/@me"),
    ]
    async with aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as http:
        for method, url in calls:
            body = {"content": "changed"} if method == "PATCH" else None
            async with http.request(method, url, json=body) as resp:
                assert resp.status == 403, (method, url)
                assert await resp.json() == {"message": "Missing Access", "code": 50001}
    assert fake.message(message.id).text == r.text and not fake.message(message.id).deleted


@pytest.mark.expect_http(401, r"/webhooks/")
@SHARED
async def test_tokens_edit_the_apps_messages_for_fifteen_minutes(shared_minimal: Shared) -> None:
    fake, alice, bob, carol = friends(shared_minimal)
    gdm = fake.group_dm(alice, bob, carol)
    first = await fake.slash(alice, gdm, "where")
    table = first.require_message()

    # a later click's token is not the first one: the bot edits through the first token
    click = await fake.click(carol, table, label="Edit earlier")
    [answer] = await click.wait_followups(1)
    assert answer.text == "first token worked" and answer.ephemeral_for == carol.id
    assert fake.message(table.id).text == "edited by carol"

    # a new interaction's token edits a message another interaction made in this channel
    stamp = await fake.slash(alice, gdm, "stamp", options={"message_id": str(table.id)})
    assert (await stamp.wait_message()).text == "stamped"
    assert fake.message(table.id).text == "stamped by alice"

    # 14 minutes on, the first token still works; at 15 it is refused (401, 50027)
    fake.advance_clock(14 * 60)
    click = await fake.click(bob, table, label="Edit earlier")
    [answer] = await click.wait_followups(1)
    assert answer.text == "first token worked"
    fake.advance_clock(60)
    assert fake.token_expired(first) and not fake.token_expired(click)
    late = await fake.click(bob, table, label="Edit earlier")
    [answer] = await late.wait_followups(1)
    assert answer.text == "first token refused: 401 50027"
    assert fake.message(table.id).text == "edited by bob"  # the refused edit changed nothing
    refused = fake.requests_to(f"/webhooks/{fake.app_id}/*/messages/@original", "PATCH")
    assert refused[-1].status == 401


@pytest.mark.expect_http(404, r"/webhooks/")
@SHARED
async def test_token_reaches_no_ephemeral_and_no_other_channel(shared_minimal: Shared) -> None:
    fake, alice, bob, _carol = friends(shared_minimal)
    world = shared_minimal.world
    gdm = fake.group_dm(alice, bob)
    elsewhere = (await fake.slash(world.alice, world.channel, "where")).require_message()
    secret = await fake.click(bob, elsewhere, label="Post")  # an ephemeral answer in the server
    assert secret.ephemeral

    for target in (elsewhere, secret.require_message()):
        stamp = await fake.slash(alice, gdm, "stamp", options={"message_id": str(target.id)})
        assert (await stamp.wait_message()).text == "stamp refused: 404 10008"
        assert "stamped" not in fake.message(target.id).text


@SHARED
async def test_commands_are_offered_only_where_declared(shared_minimal: Shared) -> None:
    fake, alice, bob, _carol = friends(shared_minimal)
    world = shared_minimal.world
    gdm = fake.group_dm(alice, bob)
    before = len(fake.interactions)

    with pytest.raises(CommandUnavailable, match="not installed the app"):
        await fake.slash(bob, gdm, "where")  # bob has no user install
    with pytest.raises(CommandUnavailable, match="contexts"):
        await fake.slash(alice, gdm, "serveronly")  # servers only
    with pytest.raises(CommandUnavailable, match="contexts"):
        await fake.slash(alice, fake.dm_channel(alice), "serveronly")
    with pytest.raises(CommandUnavailable):
        await fake.slash(alice, gdm, "demo ping")  # declared nothing: Discord's defaults
    dave = fake.add_user("dave")
    fake.install_for_user(dave)
    with pytest.raises(CommandUnavailable, match="not in"):
        await fake.slash(dave, gdm, "where")
    fake.uninstall_for_user(alice)
    assert not fake.installed_for(alice)
    with pytest.raises(CommandUnavailable):
        await fake.slash(alice, gdm, "where")
    assert len(fake.interactions) == before  # none reached the bot

    # the other side: where they are declared, they are offered
    fake.install_for_user(bob)
    assert (await fake.slash(bob, gdm, "where")).callback_type == 4
    assert (await fake.slash(world.alice, world.channel, "serveronly")).text == "server only"
    assert (await fake.slash(world.alice, fake.dm_channel(alice), "demo ping")).text == "pong"


@SHARED
async def test_synced_declarations_are_recorded_with_discords_defaults(
    shared_minimal: Shared,
) -> None:
    fake = shared_minimal.fake
    where = fake.synced_command("where")
    assert (where["integration_types"], where["contexts"]) == ([0, 1], [0, 1, 2])
    server_only = fake.synced_command("serveronly")
    assert (server_only["integration_types"], server_only["contexts"]) == ([0], [0])
    # /demo declares neither: server install, servers and the bot's DMs
    demo = fake.synced_command("demo")
    assert (demo["integration_types"], demo["contexts"]) == ([0], [0, 1])
    with pytest.raises(LookupError):
        fake.synced_command("nosuch")


async def test_token_expiry_applies_in_servers_too(
    fake_discord: FakeDiscord, world: World, minimal_bot: BotProcess, conversation: Conversation
) -> None:
    """Every interaction's token expires, not only a group DM's: the server's /demo slow
    answers inside its window; a webhook call 15 minutes on gets 401."""
    fake = fake_discord
    r = await fake.slash(world.bob, world.channel, "demo slow")
    await r.wait_message()
    fake.advance_clock(15 * 60)
    url = f"{fake.api_base}/webhooks/{fake.app_id}/{r.token}/messages/@original"
    async with aiohttp.ClientSession() as http, http.patch(url, json={"content": "x"}) as resp:
        assert resp.status == 401
        assert await resp.json() == {"message": "Invalid Webhook Token", "code": 50027}
    conversation.expect_http(401, r"/webhooks/")
    assert fake.message(r.require_message().id).text == "done thinking"


@pytest.mark.expect_http(403, r"/channels/\d+/messages")  # the bot's own post in the group DM
async def test_the_sandbox_has_a_group_dm_of_its_members(
    fake_discord: FakeDiscord, start_bot_process: StartBot
) -> None:
    """The sandbox's "friends": every member, each with the app on their account; a member
    types there only the commands declared for it, and sees what the app answered (an
    ephemeral answer only its invoker)."""
    fake = fake_discord
    sandbox = Sandbox(fake)
    await start_bot_process(MINIMAL_BOT_ARGS, wait_commands=True)
    ann, ben, cat = (sandbox.by_name(n) for n in ("Ann", "Ben", "Cat"))
    assert ann is not None and ben is not None and cat is not None
    friends = sandbox.friends
    assert friends.is_group_dm and friends.name == "friends"
    assert {u.id for u in friends.recipients} == {m.id for m in sandbox.people()}
    assert all(fake.installed_for(m) for m in sandbox.people())

    view = sandbox.view(ann, sandbox.channel(str(friends.id), ann))
    assert view["group_dms"] == [
        {"id": str(friends.id), "name": "friends", "members": ["Ann", "Ben", "Cat", "Dev"]}
    ]
    assert view["channel"] == {"id": str(friends.id), "name": "friends", "dm": False, "group": True}
    assert {c["name"] for c in view["commands"]} == {"where", "stamp"}
    server = sandbox.view(ann, sandbox.guild.channels[0])
    assert {c["name"] for c in server["commands"]} == {"demo", "where", "stamp", "serveronly"}

    await sandbox.act_slash({"as": "Ann", "channel": str(friends.id), "path": ["where"]})
    await fake.wait_until(lambda: len(fake.channel_messages(friends)) == 1)
    [shown] = sandbox.view(ben, friends)["messages"]
    assert shown["content"].startswith("context=private_channel user_install=True")
    assert shown["used"] == {"user": "Ann", "command": "/where"}

    with pytest.raises(CommandUnavailable):  # the page answers 400 with this line
        await sandbox.act_slash({"as": "Ann", "channel": str(friends.id), "path": ["serveronly"]})

    post = next(c for c in walk_components(shown["components"]) if c.get("label") == "Post")
    await sandbox.act_click({"as": "Cat", "message": shown["id"], "custom_id": post["custom_id"]})
    await fake.wait_until(lambda: bool(fake.ephemerals(cat)))
    assert [m["content"] for m in sandbox.view(cat, friends)["messages"]][-1] == (
        "cannot post here: 403 50001"
    )
    assert len(sandbox.view(ben, friends)["messages"]) == 1

    # a member added later joins the group DM with the app installed
    await sandbox.act_add_member({"name": "Eve"})
    eve = sandbox.by_name("Eve")
    assert eve is not None and friends.has_member(eve.id) and fake.installed_for(eve)


@pytest.mark.expect_http(403, r"/channels/\d+/messages")  # the bot's own post in that server
async def test_a_server_that_did_not_install_the_app(
    fake_discord: FakeDiscord, world: World, minimal_bot: BotProcess
) -> None:
    """A member who installed the app on their account uses it in a server the bot is not
    in: context 0, only the user install authorizes it, the bot hears nothing else of the
    server and may only answer there."""
    fake = fake_discord
    club = fake.add_guild("Club", bot=False)
    lounge = fake.add_text_channel(club, "lounge")
    alice = fake.add_member(club, "alice", user=world.alice.user)
    bob = fake.add_member(club, "bob", user=world.bob.user)
    fake.install_for_user(alice)

    r = await fake.slash(alice, lounge, "where")
    assert r.context == 0 and r.integration_owners == {"1": str(alice.id)}
    assert r.text.startswith("context=guild user_install=True guild_install=False")
    with pytest.raises(CommandUnavailable, match="not installed"):
        await fake.slash(bob, lounge, "where")
    with pytest.raises(CommandUnavailable):  # a server-install command: no server install
        await fake.slash(alice, lounge, "serveronly")

    post = await fake.click(bob, r.require_message(), label="Post")
    assert post.text == "cannot post here: 403 50001"
    assert post.integration_owners == {"1": str(alice.id)}
    session = fake._session
    assert session is not None
    heard = {
        str(f["d"].get("guild_id") or f["d"].get("id"))
        for f in session.events
        if f["t"] != "INTERACTION_CREATE"
    }
    assert str(world.guild.id) in heard and str(club.id) not in heard
