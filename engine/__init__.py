"""Pure game engines for the Pontoon bot: no discord, no asyncio, no I/O, no global random."""
