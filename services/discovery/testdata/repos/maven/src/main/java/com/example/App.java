package com.example;

public class App {
    public static int twice(int n) {
        return 2 * n;
    }
}
