"""deckpress: build card games from YAML into faces, a Tabletop Simulator mod and PDFs."""

__version__ = "0.1.0"
