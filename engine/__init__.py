"""Pure game engines for the card-game bot: no discord, no asyncio, no I/O, no global random.

Every game offers one interface, ``engine.game.Game`` (``engine/API.md``): who may act,
legal actions with the reasons for refusals, ``apply(action, chance)``, events and chip
transfers out, a JSON round trip. Plain Python throughout (no compiled build): one
engine, one behaviour everywhere.
"""
