"""Scripted tau-bench retail users (see ``card_user``)."""
