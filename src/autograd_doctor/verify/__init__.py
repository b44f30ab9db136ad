"""Running the user's program again, out of harm's way: a scratch copy of their files, a child
interpreter that runs the script under the doctor (with full tracing for a replay, with a
candidate fix applied for verification), and the judgement of what came back.
"""
