"""five35.cli"""
