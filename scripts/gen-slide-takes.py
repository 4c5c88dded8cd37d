#!/usr/bin/env python3
"""gen-slide-takes.py: print SLIDE_TAKES for spec/schema_table.c, the JSON
Schema rules of which content each slide layout needs and refuses (the same
table as spec/compile_deck.c's takes[]). Paste its output over the macro and
run clang-format on the file; the last line printed is the JSON's length."""
import json
L=["title_content","title","section","blank","quote","stats","closing","two_content","comparison","image_full","agenda"]
OLD={"title_content","title","section","blank"}
takes=[("subtitle",OLD|{"closing"}),("bullets",OLD),("image",OLD|{"image_full"}),("table",OLD),("chart",OLD),
("quote",{"quote"}),("attribution",{"quote"}),("stats",{"stats"}),("left",{"two_content","comparison"}),
("right",{"two_content","comparison"}),("caption",{"image_full"}),("items",{"agenda"}),("current",{"agenda"})]
need={"quote":["quote"],"stats":["stats"],"two_content":["left","right"],"comparison":["left","right"],"image_full":["image"],"agenda":["items"]}
def then(l):
    parts=[{"required":[k]} for k in need.get(l,[])]
    refused=[{"required":[k]} for k,ls in takes if l not in ls]
    parts.append({"not":{"anyOf":refused}})
    if l=="comparison":
        parts.append({"properties":{"left":{"required":["heading"]},"right":{"required":["heading"]}}})
    if l=="two_content":
        parts.append({"properties":{"left":{"not":{"required":["heading"]}},"right":{"not":{"required":["heading"]}}}})
    return parts[0] if len(parts)==1 else {"allOf":parts}
al=[{"if":{"not":{"required":["layout"]}},"then":then("title_content")}]
for l in L:
    al.append({"if":{"properties":{"layout":{"const":l}},"required":["layout"]},"then":then(l)})
s=json.dumps({"allOf":al},separators=(",",":"))
# C string chunks
esc=s.replace('\\','\\\\').replace('"','\\"')
out=[]
i=0
while i<len(esc):
    j=min(i+84,len(esc))
    # don't split an escape
    while esc[j-1]=='\\' and j<len(esc): j-=1
    out.append(esc[i:j]); i=j
print("#define SLIDE_TAKES \\")
print(" \\\n".join('    "%s"'%c for c in out))
print(len(s))
