"""confine"""
