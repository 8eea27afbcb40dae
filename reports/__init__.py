"""five35.reports"""
