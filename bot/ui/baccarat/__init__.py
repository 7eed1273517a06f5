"""Punto Banco in Discord: the betting message, its buttons and the bet form."""
