"""seats"""
