from setuptools import setup

setup(name="wordy", version="1.0", packages=["wordy"])
