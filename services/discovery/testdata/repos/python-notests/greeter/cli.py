import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="greeter", description="Print a greeting.")
    parser.add_argument("name", nargs="?", default="world")
    args = parser.parse_args(argv)
    print(f"hello, {args.name}")
    return 0
