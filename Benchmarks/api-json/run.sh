#!/bin/sh
# The API's first 100 wants written as JSON both ways in one run (issue 54; see main.swift):
# the app's JSONWriter, with the CivilTime module it writes dates through, built with -O as a
# release build is, beside Foundation's JSONEncoder. Run from anywhere: Benchmarks/api-json/run.sh
set -e
cd "$(dirname "$0")/../.."
out=.build/api-json
mkdir -p "$out"
swiftc -O -wmo -parse-as-library -package-name wishlist -module-name CivilTime -emit-module -emit-module-path "$out/CivilTime.swiftmodule" \
    -emit-library -static -o "$out/libCivilTime.a" Sources/CivilTime/*.swift
swiftc -O -wmo -package-name wishlist -I "$out" -L "$out" -lCivilTime -o "$out/api-json" Sources/WishlistWeb/API/JSONWriter.swift Benchmarks/api-json/main.swift
"$out/api-json"
