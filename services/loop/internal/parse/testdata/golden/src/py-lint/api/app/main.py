from app.calc import mean


def main():
    print(mean([]))


if __name__ == "__main__":
    main()
