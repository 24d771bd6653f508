import argparse

argparse.ArgumentParser(prog="app").parse_args()
