#!/bin/sh
echo "1..1"
echo "not ok 1 - stub"
