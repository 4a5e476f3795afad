"""The benchmark's peer: OpenCV's colour non-local means (fastNlMeansDenoisingColored).

Reads a JSON list of jobs {"in": path, "out": path, "h": float} from the file named by
the first argument and writes each result as PNG. Template window 7, search window 21
(OpenCV's defaults); hColor = h.
"""
import json
import sys

import cv2

with open(sys.argv[1], encoding="utf-8") as f:
    jobs = json.load(f)
for job in jobs:
    img = cv2.imread(job["in"], cv2.IMREAD_COLOR)
    out = cv2.fastNlMeansDenoisingColored(img, None, job["h"], job["h"], 7, 21)
    cv2.imwrite(job["out"], out)
