"""What every engine and verb shares: indexed outcomes (:mod:`.indexed`), the search for one
ability's choices (:mod:`.choices`), "must target" maximality (:mod:`.must`), lawful removal
(:mod:`.removal`), an ability's choice space (:mod:`.space`), the engine interface
(:mod:`.engine`) and the chain across passes (:mod:`.chain`)."""
