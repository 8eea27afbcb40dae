"""five35.checks"""
