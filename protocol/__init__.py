"""five35.protocol"""
