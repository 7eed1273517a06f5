"""Pure game engines for the Pontoon bot: no discord, no asyncio, no I/O, no global random.

Plain Python throughout (no compiled build): one engine, one behaviour everywhere.
"""
